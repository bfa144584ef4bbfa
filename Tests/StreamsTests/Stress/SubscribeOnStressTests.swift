import Dispatch
import Foundation
import Streams
import Testing

extension StressTests {
    /// `subscribe(on:)` on a serial and on a concurrent queue: requests from several threads, and the
    /// cancel, hop onto the queue and must reach upstream one at a time, none lost, while values pass
    /// through on the senders' threads.
    @Suite struct SubscribeOnStressTests {
        static let subscribeOn = StressOperator<StressValue, Never>(
            "subscribe(on:)", label: "subscribe-on", subscribesOnScheduler: true
        ) { source, scheduler in source.subscribe(on: scheduler) }

        @Test(arguments: StressQueueKind.allCases)
        func everyRequestReachesUpstreamOnceAndOneAtATime(queue: StressQueueKind) {
            let plan = StressPlan(senders: 4, perSender: 2_000, requesters: 4, requests: 2_000)
            let total = plan.senders * plan.perSender
            // The senders can only send what the requesters' requests, arriving through the queue,
            // allow: exactly as many values as were asked for. The completion passes through
            // synchronously, from `finish()`.
            Self.subscribeOn.expectCompleteRun(on: queue, plan: plan) { source, _ in
                #expect(source.totalRequested == .max(total))
                #expect(source.overlappingCalls == 0)
            }
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileSendingAndRequestingStopsAfterAPrefix(queue: StressQueueKind, cancelAfter: Int) {
            // The cancel reaches upstream through the queue, and wakes the senders waiting there.
            // subscribe(on:) checks, under its lock, that the subscription is live before it passes
            // each value on, and the source sends one value at a time: so one value at most, the
            // one that passed the check as cancel() ran, can arrive after cancel() returned.
            Self.subscribeOn.expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 5_000, requesters: 2, requests: 5_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                maxLate: 1,
                also: { source, _ in
                    // Once the queue is idle, the cancel has reached upstream, once, and never alongside
                    // a request.
                    #expect(source.overlappingCalls == 0)
                })
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // If the completion came first, everything sent arrived, then the completion, of which
            // only the delivery already under way can come after cancel() returned.
            Self.subscribeOn.expectCancelRacingTheCompletion(on: queue, maxLateOnceCompleted: 1)
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            // The source sends one value at a time, and the one that cancels has not returned: once
            // it has, subscribe(on:) sees the cancellation before passing on anything more.
            Self.subscribeOn.expectCancellingFromWithinADelivery(on: queue, cancelAt: cancelAt)
        }
    }
}
