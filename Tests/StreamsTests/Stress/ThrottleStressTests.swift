import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `throttle`, latest and first, with values sent from several threads while others request and
    /// cancel: on a serial and on a concurrent queue with a tiny interval, and on a virtual clock that
    /// several threads advance at once.
    ///
    /// Which values a throttle lets through depends on timing; what it must keep is exact: it makes
    /// nothing up, keeps upstream's order, never exceeds demand, lets the first value through when
    /// there is demand for it, and lets a value through once nothing is pending.
    @Suite struct ThrottleStressTests {
        static let interval: DispatchQueue.SchedulerTimeType.Stride = .microseconds(500)

        /// `throttle` on a real queue, with `interval`.
        static func throttle(
            for interval: DispatchQueue.SchedulerTimeType.Stride, latest: Bool
        ) -> StressOperator<StressValue, Never> {
            StressOperator("throttle", label: "throttle") { source, scheduler in
                source.throttle(for: interval, scheduler: scheduler, latest: latest)
            }
        }

        @Test(arguments: StressQueueKind.allCases, [false, true])
        func valuesComeOutInUpstreamOrderWithinDemand(queue: StressQueueKind, latest: Bool) {
            let scheduler = queue.makeScheduler("throttle")
            let plan = StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 500, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .max(1))
                source.throttle(for: Self.interval, scheduler: scheduler, latest: latest).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "throttle")

                #expect(runStress(plan, source: source, sink: sink))
                // Once the queue is idle, no value is pending: one more, with demand for it, must come
                // out, and the completion after it.
                #expect(scheduler.waitUntilIdle())
                sink.request(.unlimited)
                source.send(stressSentinel)
                source.finish()
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(stressIsSubsequence(report.values, of: source.sent))
                // The first value found the demand the subscriber started with, and nothing pending:
                // it goes out, unless, with `latest`, a newer one replaced it before it went.
                if !latest { #expect(report.values.first == source.sent.first) }
                #expect(report.values.last == stressSentinel)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: [false, true])
        func severalThreadsAdvancingAVirtualClockWhileOthersSend(latest: Bool) {
            let scheduler = DispatchQueue.test
            let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 500, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sink = StressSink<StressValue, Never>(initialDemand: .max(1))
                source.throttle(for: .milliseconds(1), scheduler: scheduler, latest: latest).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "throttle")

                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<1_500 { scheduler.advance(by: .microseconds(250)) }
                    })
                // Runs what is pending; then a value with demand goes out within the interval.
                scheduler.advance(by: .seconds(1))
                sink.request(.unlimited)
                source.send(stressSentinel)
                scheduler.advance(by: .milliseconds(1))
                #expect(sink.report.values.last == stressSentinel)
                source.finish()
                scheduler.advance()

                let report = sink.report
                report.expectWellBehaved()
                #expect(stressIsSubsequence(report.values, of: source.sent))
                if !latest { #expect(report.values.first == source.sent.first) }
                #expect(report.values.last == stressSentinel)
                #expect(report.completions == [.finished])
                #expect(scheduler.scheduledCount == 0)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileEmissionsAreScheduled(queue: StressQueueKind, cancelAfter: Int) {
            // throttle delivers through one deliverer at a time, which checks under the lock that
            // the subscription is live before taking each value: so one value at most, the one
            // taken as cancel() ran, can arrive after cancel() returned.
            Self.throttle(for: .microseconds(50), latest: true).expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 2_500, requesters: 2, requests: 1_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                initialDemand: .max(1), maxLate: 1, keeping: .subsequence)
        }

        @Test(arguments: StressQueueKind.allCases, [false, true])
        func finishingWhileAValueIsScheduledSendsItFirst(queue: StressQueueKind, latest: Bool) {
            // Finishes as soon as the senders are done, likely with a value scheduled to go out.
            Self.throttle(for: .milliseconds(5), latest: latest).expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 500),
                initialDemand: .max(1), keeping: .subsequence
            ) { source, report in
                if !latest { #expect(report.values.first == source.sent.first) }
            }
        }
    }
}
