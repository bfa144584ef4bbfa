import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

extension StressTests {
    /// `flatMap` with each new publisher sending from a thread of its own, while upstream sends new
    /// publishers from another, and downstream requests and cancels from others still.
    ///
    /// The new publishers are ``StressSource``s: each waits for the demand flatMap gives it before
    /// sending, so a sender blocks while flatMap has no room for its value.
    @Suite struct FlatMapStressTests {
        typealias Source = StressSource<StressValue, Never>

        /// Sends the indices `0..<count` upstream, as flatMap asks for them, then finishes.
        static func sendIndices<Failure: Error>(_ upstream: StressSource<Int, Failure>, count: Int) -> Bool {
            for index in 0..<count {
                switch upstream.send(index) {
                case .sent: continue
                case .ended: return true
                case .timedOut: return false
                }
            }
            upstream.finish()
            return true
        }

        /// Runs a sender for each of `sources`, which sends `perSender` values then finishes its
        /// source, and one more thread that sends the sources' indices upstream. Returns whether every
        /// thread returned, and how many waited for demand, or for flatMap, until the deadline.
        static func runInnersAndUpstream(
            _ upstream: StressSource<Int, Never>, _ sources: [Source], perSender: Int
        ) -> (joined: Bool, stuck: Int) {
            let inners = sources.count
            let stuck = Atomic<Int>(0)
            let joined = runOnThreads(inners + 1) { index in
                let done =
                    index == inners
                    ? Self.sendIndices(upstream, count: inners)
                    : stressSend(sources[index], sender: index, count: perSender)
                if !done { stuck.add(1, ordering: .relaxed) }
                if index < inners { sources[index].finish() }
            }
            return (joined, stuck.load(ordering: .relaxed))
        }

        /// Expects the subscriber, flatMap's subscription and each of `sources` to be freed. Call it
        /// once the subscriber has its subscription.
        static func watch<Failure>(
            _ probe: StressLeakProbe, sources: [StressSource<StressValue, Failure>],
            sink: StressSink<StressValue, Failure>
        ) {
            probe.watch("subscriber", sink)
            probe.watchSubscription("flatMap", of: sink)
            for (index, source) in sources.enumerated() { probe.watch("inner \(index)", source) }
        }

        /// As above, and `upstream` too.
        static func watch<Failure>(
            _ probe: StressLeakProbe, upstream: StressSource<Int, Failure>,
            sources: [StressSource<StressValue, Failure>],
            sink: StressSink<StressValue, Failure>
        ) {
            probe.watch("source", upstream)
            watch(probe, sources: sources, sink: sink)
        }

        @Test func everyValueArrivesOnceInItsSendersOrderWithUnlimitedDemand() {
            let inners = 6
            let perSender = 2_000
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source() }
                let sink = StressSink<StressValue, Never>()
                upstream.flatMap { sources[$0] }.subscribe(sink)
                Self.watch(probe, upstream: upstream, sources: sources, sink: sink)

                // The last thread sends the sources' indices upstream; flatMap subscribes to each as
                // its index arrives, while the other threads already wait to send through it.
                let (joined, stuck) = Self.runInnersAndUpstream(upstream, sources, perSender: perSender)
                #expect(joined)
                #expect(stuck == 0)
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                // Checked once the completion came; that each value went downstream before its
                // `send` returned is checked by FlatMapTurnStressTests.
                #expect(report.values.count == inners * perSender)
                #expect(Set(report.values) == Set(sources.flatMap(\.sent)))
                #expect(stressInSendersOrder(report.values))
                #expect(report.completions == [.finished])
            }
            #expect(probe.survivors() == [])
        }

        /// With `unleashing`, one requester asks for unlimited demand halfway through its requests, so
        /// that flatMap lifts the bound on every live publisher while they send.
        @Test(arguments: [false, true])
        func boundedDemandFromRequesterThreadsIsNeverExceeded(unleashing: Bool) {
            let inners = 4
            let perSender = 1_500
            let requesters = 3
            let total = inners * perSender
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source() }
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                upstream.flatMap { sources[$0] }.subscribe(sink)
                Self.watch(probe, upstream: upstream, sources: sources, sink: sink)

                // Senders, the upstream thread, and requesters that ask for exactly as many values as
                // are sent, one at a time.
                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 1 + requesters) { index in
                    switch index {
                    case 0..<inners:
                        if !stressSend(sources[index], sender: index, count: perSender) {
                            stuck.add(1, ordering: .relaxed)
                        }
                        sources[index].finish()
                    case inners:
                        if !Self.sendIndices(upstream, count: inners) { stuck.add(1, ordering: .relaxed) }
                    default:
                        for request in 0..<(total / requesters) {
                            let unleash = unleashing && index == inners + 1 && request == total / requesters / 2
                            sink.request(unleash ? .unlimited : .max(1))
                        }
                    }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.requested == (unleashing ? .unlimited : .max(total)))
                // As above; FlatMapTurnStressTests checks each value arrives before its `send` returns.
                #expect(report.values.count == total)
                #expect(Set(report.values) == Set(sources.flatMap(\.sent)))
                #expect(stressInSendersOrder(report.values))
                #expect(report.completions == [.finished])
            }
            #expect(probe.survivors() == [])
        }

        @Test func maxPublishersBoundsTheLiveInnersWhileTheyFinishOnTheirThreads() {
            let inners = 8
            let perSender = 600
            let gauge = StressGauge()
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source(gauge: gauge) }
                // Bounded demand that renews itself with each value.
                let sink = StressSink<StressValue, Never>(initialDemand: .max(3), demandPerValue: .max(1))
                upstream.flatMap(maxPublishers: .max(2)) { sources[$0] }.subscribe(sink)
                Self.watch(probe, upstream: upstream, sources: sources, sink: sink)

                // Each sender waits for flatMap to subscribe to its source, which it does only once
                // one of the two before has finished and upstream has sent the next index.
                let (joined, stuck) = Self.runInnersAndUpstream(upstream, sources, perSender: perSender)
                #expect(joined)
                #expect(stuck == 0)
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                // A source counts as live from its subscription until it starts to finish, so this
                // also shows that flatMap asked upstream for the next publisher only after one finished.
                #expect(gauge.maximum <= 2)
                #expect(upstream.sent == Array(0..<inners))
                #expect(report.values.count == inners * perSender)
                #expect(Set(report.values) == Set(sources.flatMap(\.sent)))
                #expect(stressInSendersOrder(report.values))
                #expect(report.completions == [.finished])
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: [1, 300, 3_000])
        func cancellingWhileInnersSendAndRequestersRequest(cancelAfter: Int) {
            let inners = 4
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source() }
                let reached = StressSignal()
                let sink = StressSink<StressValue, Never>(
                    initialDemand: .max(1),
                    onValue: { _, _, received in
                        if received == cancelAfter { reached.signal() }
                    })
                upstream.flatMap { sources[$0] }.subscribe(sink)
                Self.watch(probe, upstream: upstream, sources: sources, sink: sink)

                // Senders that would go on for long, two requesters, the upstream thread, and one that
                // cancels once `cancelAfter` values arrived, then lets go of the senders of the sources
                // flatMap never subscribed to.
                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 4) { index in
                    switch index {
                    case 0..<inners:
                        if !stressSend(sources[index], sender: index, count: 5_000) { stuck.add(1, ordering: .relaxed) }
                    case inners:
                        if !Self.sendIndices(upstream, count: inners) { stuck.add(1, ordering: .relaxed) }
                    case inners + 1, inners + 2:
                        for _ in 0..<5_000 { sink.request(.max(1)) }
                    default:
                        if !reached.wait() { stuck.add(1, ordering: .relaxed) }
                        sink.cancel()
                        for source in sources { source.close() }
                    }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)

                let report = sink.report
                // One thread at a time delivers (the emitting role), and it checks, under flatMap's
                // lock, that the stream is live before each value. So one value at most, the one that
                // passed that check as cancel() ran, can arrive after cancel() returned.
                report.expectWellBehaved(maxLate: 1)
                #expect(report.values.count >= cancelAfter)
                #expect(Set(report.values).count == report.values.count)
                #expect(Set(report.values).isSubset(of: Set(sources.flatMap(\.sent))))
                #expect(stressInSendersOrder(report.values))
                #expect(report.completions.isEmpty)
                // Upstream is cancelled once, unless it finished first (it may still be cancelled if
                // the cancel came while its completion was on its way).
                #expect(upstream.didFinish ? upstream.cancelCount <= 1 : upstream.cancelCount == 1)
                #expect(sources.allSatisfy { $0.cancelCount <= 1 })
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: [1, 300, 3_000])
        func cancellingFromWithinADeliveryStopsTheOtherThreadsAtOnce(cancelAt: Int) {
            let inners = 4
            let probe = StressLeakProbe()
            do {
                let sources = (0..<inners).map { _ in Source() }
                let sink = StressSink<StressValue, Never>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                sources.publisher.flatMap { $0 }.subscribe(sink)
                Self.watch(probe, sources: sources, sink: sink)

                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners) { index in
                    if !stressSend(sources[index], sender: index, count: 5_000) { stuck.add(1, ordering: .relaxed) }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)

                let report = sink.report
                // The delivery that cancels holds the emitting role until it returns, and no other
                // thread delivers meanwhile; once it returns, flatMap sees the cancellation before any
                // further value. So nothing arrives after the cancel, not even one value.
                report.expectWellBehaved(maxLate: 0)
                #expect(report.values.count == cancelAt)
                #expect(Set(report.values).count == cancelAt)
                #expect(stressInSendersOrder(report.values))
                #expect(report.completions.isEmpty)
                #expect(sources.allSatisfy { $0.cancelCount == 1 })
            }
            #expect(probe.survivors() == [])
        }

        @Test func aFailingInnerEndsTheStreamOnceWhileTheOthersSend() {
            let inners = 4
            let failAfter = 300
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, StressError>()
                let sources = (0..<inners).map { _ in StressSource<StressValue, StressError>() }
                let sink = StressSink<StressValue, StressError>()
                upstream.flatMap { sources[$0] }.subscribe(sink)
                Self.watch(probe, upstream: upstream, sources: sources, sink: sink)

                // The first source fails after a few values; the others would go on for long, but
                // flatMap cancels them.
                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 1) { index in
                    switch index {
                    case 0:
                        if !stressSend(sources[0], sender: 0, count: failAfter) { stuck.add(1, ordering: .relaxed) }
                        sources[0].finish(.failure(StressError(code: 1)))
                        // By the completion, flatMap has cancelled the other sources; this lets go of
                        // the senders of any it had not subscribed to yet.
                        if !sink.waitForCompletion() { stuck.add(1, ordering: .relaxed) }
                        for source in sources { source.close() }
                    case inners:
                        if !Self.sendIndices(upstream, count: inners) { stuck.add(1, ordering: .relaxed) }
                    default:
                        if !stressSend(sources[index], sender: index, count: 3_000) {
                            stuck.add(1, ordering: .relaxed)
                        }
                        sources[index].finish()
                    }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.completions == [.failure(StressError(code: 1))])
                // Values still waiting for the delivering thread when the failure came are dropped,
                // so any of them may be missing, but none comes twice or out of its sender's order.
                #expect(Set(report.values).count == report.values.count)
                #expect(Set(report.values).isSubset(of: Set(sources.flatMap(\.sent))))
                #expect(stressInSendersOrder(report.values))
                #expect(sources.allSatisfy { $0.cancelCount <= 1 })
            }
            #expect(probe.survivors() == [])
        }

        @Test func cancellingRacesTheLastCompletion() {
            // Short runs, many times over, so that the cancel wins some and the completion others.
            let inners = 4
            let perSender = 100
            for _ in 0..<10 {
                let probe = StressLeakProbe()
                do {
                    let sources = (0..<inners).map { _ in Source() }
                    let sink = StressSink<StressValue, Never>()
                    sources.publisher.flatMap { $0 }.subscribe(sink)
                    Self.watch(probe, sources: sources, sink: sink)

                    // Each sender finishes its source once its values are out; the last thread
                    // cancels as soon as every value is out, racing the finishes.
                    let stuck = Atomic<Int>(0)
                    let joined = runOnThreads(inners + 1) { index in
                        if index < inners {
                            if !stressSend(sources[index], sender: index, count: perSender) {
                                stuck.add(1, ordering: .relaxed)
                            }
                            sources[index].finish()
                        } else {
                            for source in sources { _ = source.waitUntilSent(perSender) }
                            sink.cancel()
                        }
                    }
                    #expect(joined)
                    #expect(stuck.load(ordering: .relaxed) == 0)

                    let report = sink.report
                    // One delivery at most, the one under way as cancel() ran (a value, or the
                    // completion), can come after cancel() returned.
                    report.expectWellBehaved(maxLate: 1)
                    #expect(stressInSendersOrder(report.values))
                    if report.completions.isEmpty {
                        #expect(Set(report.values).count == report.values.count)
                        #expect(Set(report.values).isSubset(of: Set(sources.flatMap(\.sent))))
                    } else {
                        // The completion comes only after every value.
                        #expect(report.values.count == inners * perSender)
                        #expect(Set(report.values) == Set(sources.flatMap(\.sent)))
                        #expect(report.completions == [.finished])
                    }
                }
                #expect(probe.survivors() == [])
            }
        }
    }
}
