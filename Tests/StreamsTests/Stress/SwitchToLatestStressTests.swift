import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

extension StressTests {
    /// `switchToLatest()` with each inner publisher sending from a thread of its own, while the outer
    /// publisher switches to the next one from another thread, and downstream requests and cancels
    /// from others still.
    @Suite struct SwitchToLatestStressTests {
        typealias Source = StressSource<StressValue, Never>

        /// Sends the indices `0..<count` upstream, each once the source before has sent `switchAfter`
        /// values (or ended), then finishes upstream. Returns false if something waited until the
        /// deadline; stops early, returning true, once upstream ends.
        static func switchThrough(
            _ upstream: StressSource<Int, Never>, _ sources: [Source], switchAfter: Int
        ) -> Bool {
            for index in sources.indices {
                switch upstream.send(index) {
                case .sent: break
                case .ended: return true
                case .timedOut: return false
                }
                guard sources[index].waitUntilSent(switchAfter) else { return false }
            }
            upstream.finish()
            return true
        }

        /// Checks what every run keeps: no source's values come after its successor's, each source's
        /// values come in order and form a prefix of what it sent, and nothing was made up.
        static func expectSwitchedCleanly(_ values: [StressValue], _ sources: [Source]) {
            #expect(zip(values, values.dropFirst()).allSatisfy { $0.sender <= $1.sender })
            #expect(stressInSendersOrder(values))
            for (index, source) in sources.enumerated() {
                #expect(stressIsPrefix(values.filter { $0.sender == index }, of: source.sent))
            }
        }

        @Test func eachSourceIsRelayedUntilItsSuccessorArrives() {
            let inners = 5
            let perSender = 3_000
            let switchAfter = 300
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source() }
                let sink = StressSink<StressValue, Never>()
                upstream.map { sources[$0] }.switchToLatest().subscribe(sink)
                probe.watch("source", upstream)
                probe.watch("subscriber", sink)
                probe.watchSubscription("switchToLatest", of: sink)
                for (index, source) in sources.enumerated() { probe.watch("inner \(index)", source) }

                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 1) { index in
                    if index == inners {
                        if !Self.switchThrough(upstream, sources, switchAfter: switchAfter) {
                            stuck.add(1, ordering: .relaxed)
                        }
                    } else {
                        if !stressSend(sources[index], sender: index, count: perSender) {
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
                #expect(report.completions == [.finished])
                Self.expectSwitchedCleanly(report.values, sources)
                // The last source is never replaced: all of it goes down.
                #expect(report.values.filter { $0.sender == inners - 1 } == sources[inners - 1].sent)
                #expect(sources[inners - 1].sent.count == perSender)
                for index in 0..<(inners - 1) {
                    #expect(report.values.filter { $0.sender == index }.count >= switchAfter - 1)
                    // Cancelled once when replaced, unless it had finished. A source marks itself
                    // finished before its completion reaches switchToLatest, so a replacement on
                    // the other thread can still cancel a source that finished: at most once.
                    if sources[index].didFinish {
                        #expect(sources[index].cancelCount <= 1)
                    } else {
                        #expect(sources[index].cancelCount == 1)
                    }
                }
            }
            #expect(probe.survivors() == [])
        }

        /// Requesters ask for one value at a time while sources are switched: demand is never exceeded,
        /// and what one source left unused is carried to the next, so the last one sends everything.
        @Test func boundedDemandIsCarriedAcrossSwitchesAndNeverExceeded() {
            let inners = 4
            let perSender = 800
            let requesters = 2
            let total = inners * perSender
            let probe = StressLeakProbe()
            do {
                let upstream = StressSource<Int, Never>()
                let sources = (0..<inners).map { _ in Source() }
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                upstream.map { sources[$0] }.switchToLatest().subscribe(sink)
                probe.watch("source", upstream)
                probe.watch("subscriber", sink)
                probe.watchSubscription("switchToLatest", of: sink)

                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 1 + requesters) { index in
                    switch index {
                    case 0..<inners:
                        if !stressSend(sources[index], sender: index, count: perSender) {
                            stuck.add(1, ordering: .relaxed)
                        }
                        sources[index].finish()
                    case inners:
                        if !Self.switchThrough(upstream, sources, switchAfter: 100) {
                            stuck.add(1, ordering: .relaxed)
                        }
                    default:
                        for _ in 0..<(total / requesters) { sink.request(.max(1)) }
                    }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                // The stream may finish before the requesters are done (replaced sources leave demand
                // unused); the sink stops asking once it has finished.
                #expect(report.requested <= .max(total))
                #expect(report.values.count <= total)
                #expect(report.completions == [.finished])
                Self.expectSwitchedCleanly(report.values, sources)
                #expect(report.values.filter { $0.sender == inners - 1 }.count == perSender)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: [1, 200, 1_500])
        func cancellingWhileSourcesSendAndSwitch(cancelAfter: Int) {
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
                upstream.map { sources[$0] }.switchToLatest().subscribe(sink)
                probe.watch("source", upstream)
                probe.watch("subscriber", sink)
                probe.watchSubscription("switchToLatest", of: sink)

                // Senders that would go on for long, two requesters, the switching thread, and one that
                // cancels once `cancelAfter` values arrived, then lets go of the senders still waiting.
                let stuck = Atomic<Int>(0)
                let joined = runOnThreads(inners + 4) { index in
                    switch index {
                    case 0..<inners:
                        if !stressSend(sources[index], sender: index, count: 5_000) {
                            stuck.add(1, ordering: .relaxed)
                        }
                    case inners:
                        if !Self.switchThrough(upstream, sources, switchAfter: 400) {
                            stuck.add(1, ordering: .relaxed)
                        }
                    case inners + 1, inners + 2:
                        for _ in 0..<5_000 { sink.request(.max(1)) }
                    default:
                        if !reached.wait() { stuck.add(1, ordering: .relaxed) }
                        sink.cancel()
                        upstream.close()
                        for source in sources { source.close() }
                    }
                }
                #expect(joined)
                #expect(stuck.load(ordering: .relaxed) == 0)

                let report = sink.report
                // Deliveries take turns, and the one holding the turn checks, under the lock, that the
                // stream is live before each value: one value at most, the one that passed that check
                // as cancel() ran, can arrive after cancel() returned.
                report.expectWellBehaved(maxLate: 1)
                #expect(report.values.count >= cancelAfter)
                #expect(report.completions.isEmpty)
                Self.expectSwitchedCleanly(report.values, sources)
                #expect(sources.allSatisfy { $0.cancelCount <= 1 })
            }
            #expect(probe.survivors() == [])
        }
    }
}
