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

        @Test(arguments: StressQueueKind.allCases)
        func byTimeGroupsEveryValueOnceInOrder(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("collect")
            let plan = StressPlan(senders: 4, perSender: 2_000)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<[StressValue], Never>()
                source.collect(.byTime(scheduler, Self.stride)).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "collect")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.allSatisfy { !$0.isEmpty })
                #expect(report.values.joined().count == plan.senders * plan.perSender)
                #expect(Array(report.values.joined()) == source.sent)
                #expect(report.completions == [.finished])
            }
            // The queue goes idle only once the repeating timer is cancelled.
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func byTimeOrCountWithBoundedDemandFromRequesterThreads(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("collect")
            let count = 8
            // Each group holds at least one value, so this many requests are enough for all of them.
            let plan = StressPlan(senders: 4, perSender: 1_000, requesters: 2, requests: 2_000)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<[StressValue], Never>(initialDemand: .none)
                source.collect(.byTimeOrCount(scheduler, Self.stride, count)).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "collect")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.allSatisfy { (1...count).contains($0.count) })
                #expect(report.values.joined().count == plan.senders * plan.perSender)
                #expect(Array(report.values.joined()) == source.sent)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
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
            let scheduler = queue.makeScheduler("collect")
            let plan = StressPlan(
                senders: 4, perSender: 5_000, requesters: 2, requests: 2_000, cancelAfterSent: cancelAfter,
                finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<[StressValue], Never>(initialDemand: .max(1))
                source.collect(.byTimeOrCount(scheduler, .microseconds(100), 4)).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "collect")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // collect delivers through one deliverer at a time, which checks under the lock that
                // the subscription is live before taking each group: so one group at most, the one
                // taken as cancel() ran, can arrive after cancel() returned.
                report.expectWellBehaved(maxLate: 1)
                #expect(stressIsPrefix(Array(report.values.joined()), of: source.sent))
                #expect(report.completions.isEmpty)
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // Short runs, many times over, so that the cancel wins some and the completion others.
            for _ in 0..<10 {
                let scheduler = queue.makeScheduler("collect")
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, Never>()
                    let sink = StressSink<[StressValue], Never>()
                    source.collect(.byTime(scheduler, Self.stride)).subscribe(sink)
                    probe.watchChain(source: source, sink: sink, operatorName: "collect")

                    #expect(runCancelRacingFinish(senders: 4, perSender: 100, source: source, sink: sink))
                    #expect(scheduler.waitUntilIdle())

                    let report = sink.report
                    // Even once upstream completed, cancelling stops what is not out yet: one delivery
                    // at most, the one under way, can come after cancel() returned.
                    report.expectWellBehaved(maxLate: 1)
                    if report.completions.isEmpty {
                        #expect(stressIsPrefix(Array(report.values.joined()), of: source.sent))
                    } else {
                        #expect(Array(report.values.joined()) == source.sent)
                        #expect(report.completions == [.finished])
                    }
                }
                #expect(scheduler.waitUntilIdle())
                #expect(probe.survivors() == [])
            }
        }

        @Test(arguments: StressQueueKind.allCases, [1, 100, 1_000])
        func cancellingFromWithinADeliveryStopsAtThatGroup(queue: StressQueueKind, cancelAt: Int) {
            let scheduler = queue.makeScheduler("collect")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<[StressValue], Never>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                source.collect(.byTimeOrCount(scheduler, .microseconds(100), 4)).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "collect")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // collect delivers through one deliverer at a time, and the delivery that cancels has
                // not returned: once it has, the deliverer sees the cancellation before the next group.
                report.expectWellBehaved(maxLate: 0)
                #expect(report.values.count == cancelAt)
                #expect(stressIsPrefix(Array(report.values.joined()), of: source.sent))
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }
    }
}
