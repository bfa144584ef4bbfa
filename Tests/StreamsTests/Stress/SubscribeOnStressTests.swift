import Dispatch
import Foundation
import Streams
import Testing

extension StressTests {
    /// `subscribe(on:)` on a serial and on a concurrent queue: requests from several threads, and the
    /// cancel, hop onto the queue and must reach upstream one at a time, none lost, while values pass
    /// through on the senders' threads.
    @Suite struct SubscribeOnStressTests {
        @Test(arguments: StressQueueKind.allCases)
        func everyRequestReachesUpstreamOnceAndOneAtATime(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("subscribe-on")
            let plan = StressPlan(senders: 4, perSender: 2_000, requesters: 4, requests: 2_000)
            let total = plan.senders * plan.perSender
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.subscribe(on: scheduler).subscribe(sink)
                // The subscription comes from the queue.
                #expect(sink.waitUntilSubscribed())
                probe.watchChain(source: source, sink: sink, operatorName: "subscribe(on:)")

                // The senders can only send what the requesters' requests, arriving through the queue,
                // allow: exactly as many values as were asked for.
                #expect(runStress(plan, source: source, sink: sink))
                // The completion passes through synchronously, from `finish()`.
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.count == total)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
                #expect(source.totalRequested == .max(total))
                #expect(source.overlappingCalls == 0)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileSendingAndRequestingStopsAfterAPrefix(queue: StressQueueKind, cancelAfter: Int) {
            let scheduler = queue.makeScheduler("subscribe-on")
            let plan = StressPlan(
                senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .none)
                source.subscribe(on: scheduler).subscribe(sink)
                #expect(sink.waitUntilSubscribed())
                probe.watchChain(source: source, sink: sink, operatorName: "subscribe(on:)")

                // The cancel reaches upstream through the queue, and wakes the senders waiting there.
                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // subscribe(on:) checks, under its lock, that the subscription is live before it passes
                // each value on, and the source sends one value at a time: so one value at most, the
                // one that passed the check as cancel() ran, can arrive after cancel() returned.
                report.expectWellBehaved(maxLate: 1)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions.isEmpty)
                // Once the queue is idle, the cancel has reached upstream, once, and never alongside a
                // request.
                #expect(source.cancelCount == 1)
                #expect(source.overlappingCalls == 0)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // Short runs, many times over, so that the cancel wins some and the completion others.
            for _ in 0..<10 {
                let scheduler = queue.makeScheduler("subscribe-on")
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, Never>()
                    let sink = StressSink<StressValue, Never>()
                    source.subscribe(on: scheduler).subscribe(sink)
                    #expect(sink.waitUntilSubscribed())
                    probe.watchChain(source: source, sink: sink, operatorName: "subscribe(on:)")

                    #expect(runCancelRacingFinish(senders: 4, perSender: 100, source: source, sink: sink))
                    #expect(scheduler.waitUntilIdle())

                    let report = sink.report
                    if report.completions.isEmpty {
                        // The cancel came first: what arrived is the beginning of what was sent.
                        report.expectWellBehaved(maxLate: 1)
                        #expect(stressIsPrefix(report.values, of: source.sent))
                    } else {
                        // The completion came first: everything sent arrived, then the completion, of
                        // which only the delivery already under way can come after cancel() returned.
                        report.expectWellBehaved(maxLate: 1)
                        #expect(report.values == source.sent)
                        #expect(report.completions == [.finished])
                    }
                }
                #expect(scheduler.waitUntilIdle())
                #expect(probe.survivors() == [])
            }
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            let scheduler = queue.makeScheduler("subscribe-on")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                source.subscribe(on: scheduler).subscribe(sink)
                #expect(sink.waitUntilSubscribed())
                probe.watchChain(source: source, sink: sink, operatorName: "subscribe(on:)")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // The source sends one value at a time, and the one that cancels has not returned: once
                // it has, subscribe(on:) sees the cancellation before passing on anything more.
                report.expectWellBehaved(maxLate: 0)
                #expect(report.values.count == cancelAt)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }
    }
}
