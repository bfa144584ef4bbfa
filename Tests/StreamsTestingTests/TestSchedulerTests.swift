import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct TestSchedulerTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    /// Milliseconds of virtual time since the scheduler's start.
    func elapsed(_ scheduler: TestSchedulerOf<DispatchQueue>, since start: DispatchQueue.SchedulerTimeType) -> Int {
        start.distance(to: scheduler.now).magnitude / 1_000_000
    }

    @Test func nothingRunsUntilTimeIsAdvanced() {
        let scheduler = DispatchQueue.test
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("later") }
        #expect(log == [])
        scheduler.advance()
        #expect(log == ["now"])
        scheduler.advance(by: .milliseconds(999))
        #expect(log == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log == ["now", "later"])
    }

    @Test func actionsRunInDateOrderAndFirstInFirstOutForTheSameInstant() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var log: [String] = []
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("b1") }
        scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append("a") }
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("b2") }
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("b3") }
        scheduler.advance(by: .seconds(5))
        #expect(log == ["a", "b1", "b2", "b3"])
        #expect(elapsed(scheduler, since: start) == 5_000)
    }

    @Test func theClockShowsEachActionsOwnTime() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var seen: [Int] = []
        for delay in [300, 100, 200] {
            scheduler.schedule(after: start.advanced(by: .milliseconds(delay))) {
                seen.append(self.elapsed(scheduler, since: start))
            }
        }
        scheduler.advance(by: .seconds(1))
        #expect(seen == [100, 200, 300])
    }

    @Test func workScheduledWhileAdvancingRunsIfDueByTheTarget() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var log: [Int] = []
        scheduler.schedule(after: start.advanced(by: .milliseconds(100))) {
            log.append(self.elapsed(scheduler, since: start))
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100))) {
                log.append(self.elapsed(scheduler, since: start))
            }
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(500))) {
                log.append(self.elapsed(scheduler, since: start))
            }
        }
        scheduler.advance(by: .milliseconds(300))
        #expect(log == [100, 200])
        scheduler.advance(by: .milliseconds(300))
        #expect(log == [100, 200, 600])
    }

    @Test func aDateInThePastRunsAtTheNextAdvance() {
        let scheduler = DispatchQueue.test
        scheduler.advance(by: .seconds(10))
        var ran = false
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(-5))) { ran = true }
        #expect(!ran)
        scheduler.advance()
        #expect(ran)
    }

    @Test func repeatingActionsRearmUntilCancelled() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var ticks: [Int] = []
        let cancellable = scheduler.schedule(
            after: start.advanced(by: .milliseconds(100)), interval: .milliseconds(250)
        ) {
            ticks.append(self.elapsed(scheduler, since: start))
        }
        scheduler.advance(by: .seconds(1))
        #expect(ticks == [100, 350, 600, 850])
        cancellable.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(ticks == [100, 350, 600, 850])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func repeatingActionCanCancelItself() {
        let scheduler = DispatchQueue.test
        var count = 0
        var cancellable: (any Cancellable)?
        cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
            count += 1
            if count == 3 { cancellable?.cancel() }
        }
        scheduler.advance(by: .seconds(10))
        #expect(count == 3)
    }

    @Test func runPerformsEverythingAndMovesTheClock() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var log: [Int] = []
        scheduler.schedule(after: start.advanced(by: .seconds(3))) { log.append(3) }
        scheduler.schedule(after: start.advanced(by: .seconds(1))) {
            log.append(1)
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { log.append(6) }
        }
        scheduler.run()
        #expect(log == [1, 3, 6])
        #expect(elapsed(scheduler, since: start) == 6_000)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func runWithAnEndlessRepetitionStopsAndFailsTheTest() {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 100)
        var runs = 0
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { runs += 1 }
        expectMisuse("TestScheduler.run() performed 100 actions") {
            scheduler.run()
        }
        #expect(runs == 100, "the run stops at the limit, and the test goes on")
        #expect(scheduler.scheduledCount == 1)
        cancellable.cancel()
    }

    @Test(arguments: [0, -3])
    func aRepetitionThatNeverMovesOnFailsTheTestInsteadOfHanging(seconds: Int) {
        let scheduler = DispatchQueue.test
        var runs = 0
        let cancellable = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(seconds),
            tolerance: scheduler.minimumTolerance, options: nil
        ) { runs += 1 }
        expectMisuse(
            "TestScheduler ran an action repeating every \(seconds) s 1000 times at the same instant and stopped it"
        ) {
            scheduler.advance(by: .seconds(10))
        }
        #expect(runs == TestSchedulerOf<DispatchQueue>.sameInstantRepetitionLimit + 1)
        #expect(scheduler.scheduledCount == 0)
        #expect(scheduler.elapsed == .seconds(10), "advancing returned and went on")
        cancellable.cancel()
    }

    @Test func aRepetitionReachingTheEndOfTheClockRunsThereOnceAndStops() {
        // The dispatch clock ends a little before 2^62 ns: every 2^61 ns, the second run is at its end,
        // and the next would be past it.
        let scheduler = DispatchQueue.test
        let interval = DispatchQueue.SchedulerTimeType.Stride.nanoseconds(1 << 61)
        let end = DispatchQueue.SchedulerTimeType(.distantFuture)
        var runs: [DispatchQueue.SchedulerTimeType] = []
        let cancellable = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: .zero, options: nil
        ) {
            runs.append(scheduler.now)
        }
        scheduler.advance(by: .seconds(1))
        #expect(runs == [])
        scheduler.run()
        #expect(runs == [scheduler.startTime.advanced(by: interval), end])
        #expect(scheduler.now == end)
        #expect(scheduler.scheduledCount == 0, "nothing is left to run past the end")
        cancellable.cancel()
    }

    @Test func aZeroIntervalRepetitionCancelledAfterItsFirstRunIsFine() {
        // What debounce(for: .zero) and timeout(.zero) do: their first run cancels the rest.
        let scheduler = DispatchQueue.test
        var runs = 0
        var cancellable: (any Cancellable)?
        cancellable = scheduler.schedule(
            after: scheduler.now, interval: .zero, tolerance: .zero, options: nil
        ) {
            runs += 1
            cancellable?.cancel()
        }
        // Any issue the scheduler reported would fail this test.
        scheduler.advance(by: .seconds(1))
        #expect(runs == 1)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func advancingToAnEarlierInstantKeepsTheClock() {
        let scheduler = RunLoop.test
        let start = scheduler.now
        scheduler.advance(by: .seconds(5))
        scheduler.advance(to: start)
        #expect(start.distance(to: scheduler.now) == .seconds(5))
    }

    @Test func advancingToAnEarlierInstantRunsNothing() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var log: [String] = []
        scheduler.advance(by: .seconds(5))
        scheduler.schedule { log.append("due now") }
        scheduler.advance(to: start.advanced(by: .seconds(2)))
        #expect(log == [])
        #expect(scheduler.elapsed == .seconds(5))
        scheduler.advance(to: scheduler.now)
        #expect(log == ["due now"])
    }

    @Test func advancingByANegativeStrideFailsTheTestAndKeepsTheClock() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        expectMisuse(
            "TestScheduler.advance(by:) was asked to move by -250 ms: virtual time only moves forward, so the stride must be zero or more."
        ) {
            scheduler.advance(by: .milliseconds(-250))
        }
        #expect(scheduler.now == start)
    }

    @Test func runLimitMessageSaysHowFarVirtualTimeGot() {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 10)
        let ticking = scheduler.schedule(after: scheduler.now, interval: .milliseconds(500)) {}
        expectMisuse("TestScheduler.run() performed 10 actions, reaching 4.5 s of virtual time") {
            scheduler.run()
        }
        ticking.cancel()
    }

    @Test func runLoopAndOperationQueueFlavours() {
        let runLoop = RunLoop.test
        let operations = OperationQueue.test
        var log: [String] = []
        runLoop.schedule(after: runLoop.now.advanced(by: .seconds(1))) { log.append("run loop") }
        operations.schedule(after: operations.now.advanced(by: 0.5)) { log.append("operations") }
        operations.advance(by: 1)
        runLoop.advance(by: 1)
        #expect(log == ["operations", "run loop"])
        #expect(runLoop.now.date == Date(timeIntervalSinceReferenceDate: 1))
    }

    @Test func erasedTestSchedulerDrivesTheSameClock() {
        let scheduler = DispatchQueue.test
        let erased = scheduler.eraseToAnyScheduler()
        var ran = false
        erased.schedule(after: erased.now.advanced(by: .seconds(2))) { ran = true }
        scheduler.advance(by: .seconds(2))
        #expect(ran)
        #expect(erased.now == scheduler.now)
    }

    @Test func startTimeStaysAndElapsedCountsFromIt() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        #expect(scheduler.startTime == start)
        #expect(scheduler.elapsed == .zero)
        scheduler.advance(by: .milliseconds(1500))
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {}
        scheduler.run()
        #expect(scheduler.startTime == start)
        #expect(scheduler.elapsed == .milliseconds(2500))
    }

    @Test func schedulingFromManyThreadsLosesNothing() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                scheduler.schedule(after: start.advanced(by: .milliseconds(index))) { counter.increment() }
                _ = thread
            }
        }
        #expect(scheduler.scheduledCount == 1_000)
        scheduler.advance(by: .seconds(1))
        #expect(counter.value == 1_000)
    }

    @Test func misuseIsReportedAtTheCallThatAdvances() {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 10)
        expectReported(atLine: #line) { scheduler.advance(by: .seconds(-1)) }
        let endless = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        expectReported(atLine: #line) { scheduler.run() }
        endless.cancel()
    }

    /// The repetition is set up by an operator, through the `Scheduler` protocol, in library code; the
    /// failure goes to the test's call that ran it.
    @Test func aRepetitionThatNeverMovesOnIsReportedAtTheCallThatRanIt() {
        let scheduler = DispatchQueue.test
        func repeatingAtOneInstant() -> any Cancellable {
            scheduler.schedule(after: scheduler.now, interval: .zero, tolerance: .zero, options: nil) {}
        }
        var repetition = repeatingAtOneInstant()
        expectReported(atLine: #line) { scheduler.advance(by: .seconds(1)) }
        repetition = repeatingAtOneInstant()
        expectReported(atLine: #line) { scheduler.advance(to: scheduler.now.advanced(by: .seconds(1))) }
        repetition = repeatingAtOneInstant()
        expectReported(atLine: #line) { scheduler.run() }
        repetition = repeatingAtOneInstant()
        expectReported(atLine: #line) { _ = scheduler.marbles(of: Just(1), frames: 1) }
        repetition.cancel()
    }
}

/// A counter the tests increment from actions.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched by the thread that advances the scheduler.
    private var count = 0
    var value: Int { count }
    func increment() { count += 1 }
}
