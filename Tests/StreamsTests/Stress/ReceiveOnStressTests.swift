import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `receive(on:)` on a serial and on a concurrent queue, with values sent from several threads
    /// while others request and cancel.
    @Suite struct ReceiveOnStressTests {
        static let receiveOn = StressOperator<StressValue, Never>("receive(on:)", label: "receive-on") {
            source, scheduler in source.receive(on: scheduler)
        }

        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInTheOrderUpstreamSentIt(queue: StressQueueKind) {
            // Requests go straight upstream, so the senders send exactly what the requesters ask.
            Self.receiveOn.expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 3_000, requesters: 2, requests: 6_000))
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileSendingAndRequestingStopsAfterAPrefix(queue: StressQueueKind, cancelAfter: Int) {
            // receive(on:) checks, under its lock, that the subscription is live before each value,
            // and only one drain runs at a time: so one value at most, the one that passed the
            // check as cancel() ran, can arrive after cancel() returned.
            Self.receiveOn.expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                maxLate: 1)
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            // The delivery that cancels is the only one under way, and receive(on:) checks for the
            // cancellation before the next value: nothing comes after it.
            Self.receiveOn.expectCancellingFromWithinADelivery(on: queue, cancelAt: cancelAt)
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // If upstream completed first, as in Combine, the cancel no longer stops anything, so
            // everything sent arrives, then the completion, whenever cancel() returned.
            Self.receiveOn.expectCancelRacingTheCompletion(on: queue, maxLateOnceCompleted: .max)
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
            Self.receiveOn.expectSubscribingWhileSendersWaitDeliversNothingDuringTheSubscription(on: queue)
        }

        @Test(arguments: StressQueueKind.allCases)
        func demandFromDeliveriesAndFromRequesterThreadsAddsUp(queue: StressQueueKind) {
            Self.receiveOn.expectDemandFromDeliveriesAndFromRequesterThreadsAddsUp(on: queue)
        }
    }
}
