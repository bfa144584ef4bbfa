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

        static let delay = StressOperator<StressValue, Never>("delay", label: "delay") { source, scheduler in
            source.delay(for: interval, scheduler: scheduler)
        }

        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInTheOrderUpstreamSentIt(queue: StressQueueKind) {
            // Requests go straight upstream, so the senders send exactly what the requesters ask.
            Self.delay.expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 3_000))
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileSendingAndRequestingStopsAfterAPrefix(queue: StressQueueKind, cancelAfter: Int) {
            // delay checks, under its lock, that the subscription is live before it hands out each
            // event, and only one thread delivers at a time: so one value at most, the one handed
            // out as cancel() ran, can arrive after cancel() returned.
            Self.delay.expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                maxLate: 1)
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            // The delivery that cancels is the only one under way, and delay checks for the
            // cancellation before the next event: nothing comes after it.
            Self.delay.expectCancellingFromWithinADelivery(on: queue, cancelAt: cancelAt)
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // If upstream completed first, as in Combine, the cancel no longer stops anything, so
            // everything sent arrives, then the completion, whenever cancel() returned.
            Self.delay.expectCancelRacingTheCompletion(on: queue, maxLateOnceCompleted: .max)
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
            Self.delay.expectSubscribingWhileSendersWaitDeliversNothingDuringTheSubscription(on: queue)
        }

        @Test(arguments: StressQueueKind.allCases)
        func demandFromDeliveriesAndFromRequesterThreadsAddsUp(queue: StressQueueKind) {
            Self.delay.expectDemandFromDeliveriesAndFromRequesterThreadsAddsUp(on: queue)
        }
    }
}
