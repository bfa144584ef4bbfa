import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `debounce` with values sent from several threads while others request and cancel: on a serial
    /// and on a concurrent queue with a tiny due time, and on a virtual clock that several threads
    /// advance at once, so that timers fire on several threads while values keep coming.
    ///
    /// Which values a debounce lets through depends on timing; what it must keep is exact: it makes
    /// nothing up, keeps upstream's order, never exceeds demand, and a value followed by quiet, with
    /// demand for it, comes out.
    @Suite struct DebounceStressTests {
        static let dueTime: DispatchQueue.SchedulerTimeType.Stride = .microseconds(500)

        /// `debounce` on a real queue, with `dueTime`.
        static func debounce(
            for dueTime: DispatchQueue.SchedulerTimeType.Stride
        ) -> StressOperator<StressValue, Never> {
            StressOperator("debounce", label: "debounce") { source, scheduler in
                source.debounce(for: dueTime, scheduler: scheduler)
            }
        }

        @Test(arguments: StressQueueKind.allCases)
        func theValueBeforeAQuietIntervalArrivesAndNothingIsMadeUp(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("debounce")
            let plan = StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 500, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, Never>()
                let sentinelArrived = StressSignal()
                let sink = StressSink<StressValue, Never>(
                    initialDemand: .max(1),
                    onValue: { _, value, _ in
                        if value == stressSentinel { sentinelArrived.signal() }
                    })
                source.debounce(for: Self.dueTime, scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "debounce")

                #expect(runStress(plan, source: source, sink: sink))
                // Once the senders are done, one more value, with demand for it, must come out after the
                // quiet interval. The burst's last value may still take one of the two asked for here.
                sink.request(.max(2))
                source.send(stressSentinel)
                #expect(sentinelArrived.wait())
                source.finish()
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(stressIsSubsequence(report.values, of: source.sent))
                #expect(report.values.last == stressSentinel)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test func severalThreadsAdvancingAVirtualClockWhileOthersSend() {
            // A few rounds: timers that fall due on two threads at once, with values coming in
            // between, are what this is after.
            for _ in 0..<4 {
                let scheduler = DispatchQueue.test
                let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 3_000, finishes: false)
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, Never>()
                    let sink = StressSink<StressValue, Never>(initialDemand: .max(1))
                    source.debounce(for: .milliseconds(1), scheduler: scheduler).subscribe(sink)
                    probe.watchChain(source: source, sink: sink, operatorName: "debounce")

                    // Three more threads move the clock on, each running the timers that fall due.
                    #expect(
                        runStress(plan, source: source, sink: sink, alongside: 3) { _ in
                            for _ in 0..<1_000 { scheduler.advance(by: .microseconds(250)) }
                        })
                    sink.request(.max(2))
                    source.send(stressSentinel)
                    scheduler.advance(by: .milliseconds(1))
                    #expect(sink.report.values.last == stressSentinel)
                    source.finish()
                    scheduler.advance()

                    let report = sink.report
                    report.expectWellBehaved()
                    // A value taken by one timer must go out before a newer value taken by another.
                    #expect(stressIsSubsequence(report.values, of: source.sent))
                    #expect(report.values.last == stressSentinel)
                    #expect(report.completions == [.finished])
                    // No timer is left behind.
                    #expect(scheduler.scheduledCount == 0)
                }
                #expect(probe.survivors() == [])
            }
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingWhileTimersFireAndValuesArrive(queue: StressQueueKind, cancelAfter: Int) {
            // A due time short enough for timers to fire between the senders' values. debounce
            // delivers through one deliverer at a time, which checks under the lock that the
            // subscription is live before taking each value: so one value at most, the one taken as
            // cancel() ran, can arrive after cancel() returned.
            Self.debounce(for: .microseconds(50)).expectCancellingFromAnotherThread(
                on: queue,
                plan: StressPlan(
                    senders: 4, perSender: 2_500, requesters: 2, requests: 1_000, cancelAfterSent: cancelAfter,
                    finishes: false),
                initialDemand: .max(1), maxLate: 1, keeping: .subsequence)
        }

        @Test(arguments: StressQueueKind.allCases)
        func finishingWhileAValueWaitsDropsItAndStopsItsTimer(queue: StressQueueKind) {
            // Finishes as soon as the senders are done, with the last value still waiting for quiet,
            // which debounce drops, as Combine does: the due time is long enough for it to be still
            // waiting when the source finishes. The queue goes idle, at the end, only once the
            // waiting value's timer is cancelled.
            Self.debounce(for: .seconds(1)).expectCompleteRun(
                on: queue, plan: StressPlan(senders: 4, perSender: 1_500, requesters: 2, requests: 500),
                initialDemand: .max(1), keeping: .subsequence)
        }
    }
}
