import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `receive(on:)` on a serial and on a concurrent queue, with values sent from several threads
    /// while others request and cancel.
    @Suite struct ReceiveOnStressTests {
        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInTheOrderUpstreamSentIt(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("receive-on")
            let plan = StressPlan(senders: 4, perSender: 3_000, requesters: 2, requests: 6_000)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.receive(on: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

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
            let scheduler = queue.makeScheduler("receive-on")
            let plan = StressPlan(
                senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.receive(on: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // receive(on:) checks, under its lock, that the subscription is live before each value,
                // and only one drain runs at a time: so one value at most, the one that passed the
                // check as cancel() ran, can arrive after cancel() returned.
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
            let scheduler = queue.makeScheduler("receive-on")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                source.receive(on: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // The delivery that cancels is the only one under way, and receive(on:) checks for the
                // cancellation before the next value: nothing comes after it.
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
                let scheduler = queue.makeScheduler("receive-on")
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, Never>()
                    let sink = StressSink<StressValue, Never>()
                    source.receive(on: scheduler).subscribe(sink)
                    probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

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

        @Test func severalThreadsRunningAVirtualSchedulerWhileOthersSend() {
            let scheduler = DispatchQueue.test
            let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 3_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.receive(on: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

                // Two more threads run what is due, so drains run on either of them, or both at once.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<1_500 { scheduler.advance() }
                    })
                source.finish()
                scheduler.advance()

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
            let scheduler = queue.makeScheduler("receive-on")
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
                        source.receive(on: scheduler).subscribe(sink)
                        probe.watch("receive(on:)", object: sink.subscriptionReference)
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
            let scheduler = queue.makeScheduler("receive-on")
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
                source.receive(on: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "receive(on:)")

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
