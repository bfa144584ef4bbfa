import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// What the tasks of one test record, read and written on the main actor.
@MainActor
private final class Log<Element> {
    var entries: [Element] = []
}

/// Suspends the calling task until `scheduler` performs an action scheduled `delay` from its now.
@MainActor
private func wake(after delay: DispatchStride, on scheduler: TestSchedulerOf<DispatchQueue>) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        scheduler.schedule(after: scheduler.now.advanced(by: delay)) { continuation.resume() }
    }
}

/// The `async` forms of advancing. Every test runs on the main actor, as do the tasks it starts, so a
/// task runs only when the test lets it: each interleaving below is the only one possible.
@Suite @MainActor struct TestSchedulerAsyncTests {
    /// Milliseconds of virtual time since the scheduler's start.
    func elapsed(_ scheduler: TestSchedulerOf<DispatchQueue>) -> Int {
        scheduler.elapsed.magnitude / 1_000_000
    }

    @Test func advancingSeesWorkThatATaskSchedulesAfterTheCall() async {
        let scheduler = DispatchQueue.test
        let log = Log<String>()
        // The task has not run yet when the test advances: the work it schedules is not there.
        Task {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.entries.append("due") }
        }
        #expect(scheduler.scheduledCount == 0)
        await scheduler.advance(by: .seconds(1))
        #expect(log.entries == ["due"])
        #expect(elapsed(scheduler) == 1_000)
    }

    @Test func advancingLetsAResumedTaskScheduleItsNextStepWithinTheSameCall() async {
        let scheduler = DispatchQueue.test
        let log = Log<Int>()
        let task = Task {
            for step in 1...3 {
                await wake(after: .seconds(1), on: scheduler)
                log.entries.append(step * 1_000 + elapsed(scheduler))
            }
        }
        await scheduler.advance(by: .milliseconds(2_500))
        #expect(log.entries == [2_000, 4_000])
        #expect(elapsed(scheduler) == 2_500)
        await scheduler.advance(by: .milliseconds(500))
        await task.value
        #expect(log.entries == [2_000, 4_000, 6_000])
    }

    @Test func advancingByZeroRunsOnlyWhatIsDueNow() async {
        let scheduler = DispatchQueue.test
        let log = Log<String>()
        Task {
            scheduler.schedule { log.entries.append("now") }
            scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(1))) { log.entries.append("later") }
        }
        await scheduler.advance()
        #expect(log.entries == ["now"])
        #expect(elapsed(scheduler) == 0)
        await scheduler.advance(by: .zero)
        #expect(log.entries == ["now"])
    }

    @Test func advancingToAnInstantStopsThereAndNotBefore() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.startTime
        let log = Log<Int>()
        Task {
            await wake(after: .seconds(2), on: scheduler)
            log.entries.append(elapsed(scheduler))
        }
        await scheduler.advance(to: start.advanced(by: .milliseconds(1_999)))
        #expect(log.entries == [])
        #expect(elapsed(scheduler) == 1_999)
        await scheduler.advance(to: start.advanced(by: .seconds(3)))
        #expect(log.entries == [2_000])
        #expect(elapsed(scheduler) == 3_000)
        // An instant in the past leaves the clock where it is.
        await scheduler.advance(to: start)
        #expect(elapsed(scheduler) == 3_000)
    }

    @Test func actionsDueAtTheSameInstantStillRunFirstInFirstOut() async {
        let scheduler = DispatchQueue.test
        let log = Log<String>()
        for name in ["a", "b", "c"] {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.entries.append(name) }
        }
        await scheduler.advance(by: .seconds(1))
        #expect(log.entries == ["a", "b", "c"])
    }

    @Test func runPerformsEverythingIncludingWhatTasksScheduleOnTheWay() async {
        let scheduler = DispatchQueue.test
        let task = Task {
            await scheduler.timer(interval: .seconds(1)).prefix(10).reduce(0) { @Sendable count, _ in count + 1 }
        }
        await scheduler.run()
        #expect(await task.value == 10)
        #expect(elapsed(scheduler) == 10_000)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func runWithNothingScheduledReturnsAndLeavesTheClock() async {
        let scheduler = DispatchQueue.test
        await scheduler.run()
        #expect(elapsed(scheduler) == 0)
    }

    @Test func aRepeatingActionTicksOncePerIntervalUpToAFarFuture() async {
        let scheduler = DispatchQueue.test
        let log = Log<Int>()
        let ticking = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            log.entries.append(0)
        }
        await scheduler.advance(by: .seconds(1))
        #expect(log.entries.count == 1)
        await scheduler.advance(by: .seconds(500))
        #expect(log.entries.count == 501)
        ticking.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func asyncAdvancingByANegativeStrideFailsTheTestAndKeepsTheClock() async {
        let scheduler = RunLoop.test
        let start = scheduler.now
        let issues = await recordedIssues {
            await scheduler.advance(by: .seconds(-1.5))
        }
        #expect(issues.count == 1)
        #expect(
            issues.first?.contains(
                "TestScheduler.advance(by:) was asked to move by -1.5 s: virtual time only moves forward") == true)
        #expect(scheduler.now == start)
    }

    @Test func asyncRunWithAnEndlessRepetitionStopsAndFailsTheTest() async {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 10)
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        let issues = await recordedIssues {
            await scheduler.run()
        }
        #expect(issues.count == 1)
        #expect(issues.first?.contains("TestScheduler.run() performed 10 actions") == true)
        cancellable.cancel()
    }

    @Test func asyncMisuseIsReportedAtTheCallThatAdvances() async {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 10)
        await expectReported(atLine: #line) { await scheduler.advance(by: .seconds(-1)) }
        let endless = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        await expectReported(atLine: #line) { await scheduler.run() }
        endless.cancel()
    }

    @Test func anAsyncRepetitionThatNeverMovesOnIsReportedAtTheCallThatRanIt() async {
        let scheduler = DispatchQueue.test
        func repeatingAtOneInstant() -> any Cancellable {
            scheduler.schedule(after: scheduler.now, interval: .zero, tolerance: .zero, options: nil) {}
        }
        var repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await scheduler.advance(by: .seconds(1)) }
        repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await scheduler.advance(to: scheduler.now.advanced(by: .seconds(1))) }
        repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await scheduler.run() }
        repetition.cancel()
    }
}
