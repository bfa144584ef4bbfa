import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `timeout` on a serial and on a concurrent queue, with values sent from several threads while
    /// others request and cancel, and the timer firing in the middle of it all.
    @Suite struct TimeoutStressTests {
        /// Far longer than any run: the timer is rearmed, but never times out.
        static let timeout = StressOperator<StressValue, StressError>("timeout", label: "timeout") {
            source, scheduler in
            source.timeout(.seconds(60), scheduler: scheduler, customError: { StressError(code: 7) })
        }

        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInOrderWhileTheTimerKeepsBeingPushedBack(queue: StressQueueKind) {
            // The queue goes idle, at the end, only once the repeating timer is cancelled.
            Self.timeout.expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 2_000, requesters: 2, requests: 4_000))
        }

        @Test(arguments: StressQueueKind.allCases)
        func timingOutWhileSendersSendDeliversAPrefixThenTheFailure(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>()
                // Short enough to fire as soon as the senders pause, or are done.
                source.timeout(.milliseconds(20), scheduler: scheduler, customError: { StressError(code: 7) })
                    .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                report.expectWellBehaved()
                // What was still waiting for the queue when the timer fired is dropped: the values
                // delivered are the first ones sent, then the failure.
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions == [.failure(StressError(code: 7))])
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [200, 1_000, 5_000])
        func cancellingRacesTheTimer(queue: StressQueueKind, timeoutMicroseconds: Int) {
            // The timer fires whenever the senders wait for the requesters a little.
            let timeout = StressOperator<StressValue, StressError>("timeout", label: "timeout") {
                source, scheduler in
                source.timeout(
                    .microseconds(timeoutMicroseconds), scheduler: scheduler, customError: { StressError(code: 7) })
            }
            // timeout delivers from one drain at a time, which checks under the lock that the
            // subscription is live before each value. So one delivery at most can begin after
            // cancel() returned: the value that passed the check as cancel() ran, or, if the timer
            // fired first (and cancel() then had nothing left to cancel), the failure. Upstream is
            // cancelled once: by the timer or by the subscriber, never both.
            timeout.expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 5_000, requesters: 2, requests: 3_000, cancelAfterSent: 2_000,
                    finishes: false),
                maxLate: 1,
                completionsAllowed: { $0.isEmpty || $0 == [.failure(StressError(code: 7))] })
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // If the completion came first, everything sent arrived, then the completion, of which
            // only the delivery already under way can come after cancel() returned.
            Self.timeout.expectCancelRacingTheCompletion(on: queue, maxLateOnceCompleted: 1)
        }

        @Test func severalThreadsAdvancingAVirtualClockUntilItTimesOut() {
            let scheduler = DispatchQueue.test
            let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 3_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>(initialDemand: .none)
                source.timeout(.milliseconds(1), scheduler: scheduler, customError: { StressError(code: 7) })
                    .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                // Two more threads move the clock on: it times out whenever the values fall a virtual
                // millisecond behind, and at the latest once the senders are done.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<1_500 { scheduler.advance(by: .microseconds(100)) }
                    })
                scheduler.advance(by: .seconds(1))

                let report = sink.report
                report.expectWellBehaved()
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions == [.failure(StressError(code: 7))])
                #expect(source.cancelCount == 1)
                #expect(scheduler.scheduledCount == 0)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func subscribingWhileSendersWaitDeliversNothingDuringTheSubscription(queue: StressQueueKind) {
            Self.timeout.expectSubscribingWhileSendersWaitDeliversNothingDuringTheSubscription(on: queue)
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            // The delivery that cancels is the only one under way, and timeout checks for the
            // cancellation before the next value: nothing comes after it. The queue goes idle, at
            // the end, only once the timer is cancelled.
            Self.timeout.expectCancellingFromWithinADelivery(on: queue, cancelAt: cancelAt)
        }
    }
}
