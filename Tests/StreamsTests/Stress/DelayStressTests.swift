import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `delay` on a serial and on a concurrent queue, with a tiny interval, values sent from several
    /// threads while others request and cancel. On the concurrent queue the delayed actions run on
    /// several threads at once, and delay must still deliver one value at a time, in order.
    @Suite struct DelayStressTests {
        static let interval: DispatchQueue.SchedulerTimeType.Stride = .microseconds(300)

        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInTheOrderUpstreamSentIt(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("delay")
            let plan = StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 3_000)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "delay")

                // Requests go straight upstream, so the senders send exactly what the requesters ask.
                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.count == plan.senders * plan.perSender)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileSendingAndRequestingStopsAfterAPrefix(queue: StressQueueKind, cancelAfter: Int) {
            let scheduler = queue.makeScheduler("delay")
            let plan = StressPlan(
                senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "delay")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // delay checks, under its lock, that the subscription is live before it hands out each
                // event, and only one thread delivers at a time: so one value at most, the one handed
                // out as cancel() ran, can arrive after cancel() returned.
                report.expectWellBehaved(maxLate: 1)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions.isEmpty)
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            let scheduler = queue.makeScheduler("delay")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "delay")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // The delivery that cancels is the only one under way, and delay checks for the
                // cancellation before the next event: nothing comes after it.
                report.expectWellBehaved(maxLate: 0)
                #expect(report.values.count == cancelAt)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // Short runs, many times over, so that the cancel wins some and the completion others.
            for _ in 0..<10 {
                let scheduler = queue.makeScheduler("delay")
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, Never>()
                    let sink = StressSink<StressValue, Never>()
                    source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                    probe.watchChain(source: source, sink: sink, operatorName: "delay")

                    #expect(runCancelRacingFinish(senders: 4, perSender: 100, source: source, sink: sink))
                    #expect(scheduler.waitUntilIdle())

                    let report = sink.report
                    if report.completions.isEmpty {
                        // The cancel came first: what arrived is the beginning of what was sent.
                        report.expectWellBehaved(maxLate: 1)
                        #expect(stressIsPrefix(report.values, of: source.sent))
                    } else {
                        // Upstream completed first: as in Combine, the cancel no longer stops anything,
                        // so everything sent arrives, then the completion, whenever cancel() returned.
                        report.expectWellBehaved(maxLate: .max)
                        #expect(report.values == source.sent)
                        #expect(report.completions == [.finished])
                    }
                }
                #expect(scheduler.waitUntilIdle())
                #expect(probe.survivors() == [])
            }
        }

        @Test func severalThreadsAdvancingAVirtualClockWhileOthersSend() {
            let scheduler = DispatchQueue.test
            // Fewer values than on the real queues: the test scheduler looks through every pending
            // action to find the next one, and delay keeps one pending per value.
            let plan = StressPlan(senders: 2, perSender: 400, requesters: 1, requests: 800, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.delay(for: .milliseconds(1), scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "delay")

                // Two more threads move the clock on, each running the deliveries that fall due.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<400 { scheduler.advance(by: .microseconds(100)) }
                    })
                source.finish()
                scheduler.advance(by: .seconds(1))

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.count == plan.senders * plan.perSender)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
                #expect(scheduler.scheduledCount == 0)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func subscribingWhileSendersWaitDeliversNothingDuringTheSubscription(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("delay")
            let plan = StressPlan(senders: 4, perSender: 500)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                // Stays in `receive(subscription:)` until the values it asked for pour in.
                let sink = StressSink<StressValue, Never>(onSubscription: { _ = source.waitUntilSent(200) })
                probe.watch("source", source)
                probe.watch("subscriber", sink)

                // The senders already wait when the subscriber attaches, from a thread of its own, and
                // asks for everything from within `receive(subscription:)`: values come at once, and
                // must wait until it returns.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 1) { _ in
                        source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                        probe.watch("delay", object: sink.subscriptionReference)
                    })
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.duringSubscription == 0)
                #expect(report.values.count == plan.senders * plan.perSender)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func demandFromDeliveriesAndFromRequesterThreadsAddsUp(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("delay")
            let plan = StressPlan(senders: 4, perSender: 1_000, requesters: 2, requests: 500, finishes: false)
            let total = plan.senders * plan.perSender
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let allArrived = StressSignal()
                // Each value asks for one more, from the queue, while the requesters ask from theirs.
                let sink = StressSink<StressValue, Never>(
                    initialDemand: .max(1), demandPerValue: .max(1),
                    onValue: { _, _, received in
                        if received == total { allArrived.signal() }
                    })
                source.delay(for: Self.interval, scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "delay")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(allArrived.wait())
                // Once the queue is idle, every value's answer has gone upstream: upstream was asked
                // for exactly what the subscriber asked for.
                #expect(scheduler.waitUntilIdle())
                #expect(source.totalRequested == sink.report.requested)
                source.finish()
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values == source.sent)
                #expect(report.values.count == total)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }
    }
}
