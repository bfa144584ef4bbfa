import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `collect(.byTime)` and `collect(.byTimeOrCount)`, with values sent from several threads while
    /// others request and cancel: on a serial and on a concurrent queue with a tiny interval, and on a
    /// virtual clock that several threads advance at once.
    ///
    /// How values are grouped depends on timing; the groups, put end to end, must be exactly what
    /// upstream sent, in its order.
    @Suite struct CollectByTimeStressTests {
        static let stride: DispatchQueue.SchedulerTimeType.Stride = .microseconds(500)

        /// `collect(.byTime)`, its groups put end to end.
        static let byTime = StressOperator<[StressValue], Never>(
            "collect", label: "collect", flatten: { Array($0.joined()) }
        ) { source, scheduler in source.collect(.byTime(scheduler, stride)) }

        /// `collect(.byTimeOrCount)` with a tiny interval and `count` values at most per group, its groups
        /// put end to end.
        static func byTimeOrCount(_ interval: DispatchQueue.SchedulerTimeType.Stride, _ count: Int) -> StressOperator<
            [StressValue], Never
        > {
            StressOperator("collect", label: "collect", flatten: { Array($0.joined()) }) { source, scheduler in
                source.collect(.byTimeOrCount(scheduler, interval, count))
            }
        }

        @Test(arguments: StressQueueKind.allCases)
        func byTimeGroupsEveryValueOnceInOrder(queue: StressQueueKind) {
            // The queue goes idle, at the end, only once the repeating timer is cancelled.
            Self.byTime.expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 2_000), initialDemand: .unlimited
            ) { _, report in
                #expect(report.values.allSatisfy { !$0.isEmpty })
            }
        }

        @Test(arguments: StressQueueKind.allCases)
        func byTimeOrCountWithBoundedDemandFromRequesterThreads(queue: StressQueueKind) {
            let count = 8
            // Each group holds at least one value, so this many requests are enough for all of them.
            Self.byTimeOrCount(Self.stride, count).expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 1_000, requesters: 2, requests: 2_000)
            ) { _, report in
                #expect(report.values.allSatisfy { (1...count).contains($0.count) })
            }
        }

        @Test func byTimeOrCountWithSeveralThreadsAdvancingAVirtualClock() {
            let scheduler = DispatchQueue.test
            let count = 5
            let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 3_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<[StressValue], Never>(initialDemand: .none)
                source.collect(.byTimeOrCount(scheduler, .milliseconds(1), count)).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "collect")

                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<1_500 { scheduler.advance(by: .microseconds(250)) }
                    })
                source.finish()
                // Runs the final flush, and whatever else is due.
                scheduler.advance(by: .seconds(1))

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.allSatisfy { (1...count).contains($0.count) })
                #expect(Array(report.values.joined()) == source.sent)
                #expect(source.sent.count == plan.senders * plan.perSender)
                #expect(report.completions == [.finished])
                #expect(scheduler.scheduledCount == 0)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileGroupsGoOut(queue: StressQueueKind, cancelAfter: Int) {
            // collect delivers through one deliverer at a time, which checks under the lock that
            // the subscription is live before taking each group: so one group at most, the one
            // taken as cancel() ran, can arrive after cancel() returned.
            Self.byTimeOrCount(.microseconds(100), 4).expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 5_000, requesters: 2, requests: 2_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                initialDemand: .max(1), maxLate: 1)
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // Even once upstream completed, cancelling stops what is not out yet: one delivery
            // at most, the one under way, can come after cancel() returned.
            Self.byTime.expectCancelRacingTheCompletion(on: queue, maxLateOnceCompleted: 1)
        }

        @Test(arguments: StressQueueKind.allCases, [1, 100, 1_000])
        func cancellingFromWithinADeliveryStopsAtThatGroup(queue: StressQueueKind, cancelAt: Int) {
            // collect delivers through one deliverer at a time, and the delivery that cancels has
            // not returned: once it has, the deliverer sees the cancellation before the next group.
            Self.byTimeOrCount(.microseconds(100), 4).expectCancellingFromWithinADelivery(
                on: queue, cancelAt: cancelAt)
        }
    }
}
