import StreamsTesting
import Testing

/// What the tasks of one test record, on the main actor.
@MainActor
final class ClockLog {
    var entries: [String] = []
}

/// Lets other tasks run until `count` sleeps wait on `clock` (for at most 10,000 turns).
@MainActor
func untilSleeping(_ count: Int, on clock: TestClock<Duration>) async {
    for _ in 0..<10_000 where clock.sleepCount < count {
        await Task.yield()
    }
}

/// A test clock on its own time. Every test runs on the main actor, as do the tasks it starts, so a
/// task runs only when the test lets it (by awaiting an advance, a run or a task's value).
@Suite @MainActor struct TestClockTests {
    @Test func aSleepWakesExactlyAtItsDeadline() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await untilSleeping(1, on: clock)
        await clock.advance(by: .milliseconds(999))
        #expect(clock.sleepCount == 1)
        #expect(clock.now.offset == .milliseconds(999))
        await clock.advance(by: .milliseconds(1))
        #expect(clock.sleepCount == 0)
        try await sleeper.value
        #expect(clock.now.offset == .seconds(1))
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnceAndNowWaitsForAnAdvance() async throws {
        let clock = TestClock<Duration>(now: .init(offset: .seconds(10)))
        try await clock.sleep(until: .init(offset: .seconds(9)))  // returns: nothing to advance
        let log = ClockLog()
        let sleeper = Task {
            try await clock.sleep(until: clock.now)
            log.entries.append("woke")
        }
        await untilSleeping(1, on: clock)
        #expect(clock.sleepCount == 1)
        #expect(log.entries.isEmpty)
        await clock.advance()
        try await sleeper.value
        #expect(log.entries == ["woke"])
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func sleepsWakeInOrderOfDeadlineAndFirstComeFirstServedAmongEquals() async {
        let clock = TestClock()
        let log = ClockLog()
        var sleepers: [Task<Void, any Error>] = []
        for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)] {
            sleepers.append(
                Task {
                    try await clock.sleep(for: .seconds(seconds))
                    log.entries.append("\(name)@\(clock.now.offset)")
                })
            await untilSleeping(sleepers.count, on: clock)  // each task sleeps before the next one starts
        }
        await clock.advance(by: .seconds(3))
        #expect(log.entries == ["a@1.0 seconds", "b1@2.0 seconds", "b2@2.0 seconds", "c@3.0 seconds"])
        for sleeper in sleepers { _ = await sleeper.result }
    }

    @Test func oneAdvanceWakesTheSleepsAWokenTaskGoesOnToTake() async throws {
        let clock = TestClock()
        let ticks = Task {
            var times: [Duration] = []
            for _ in 1...5 {
                try await clock.sleep(for: .seconds(1))
                times.append(clock.now.offset)
            }
            return times
        }
        await untilSleeping(1, on: clock)
        await clock.advance(by: .seconds(5))
        #expect(try await ticks.value == [.seconds(1), .seconds(2), .seconds(3), .seconds(4), .seconds(5)])
    }

    @Test func advancingToAnInstantAlreadyPassedKeepsTheTime() async {
        let clock = TestClock()
        await clock.advance(by: .seconds(2))
        await clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAndLeavesNothingOnTheClock() async throws {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepCount == 0)
        try await clock.checkSuspension()
    }

    @Test func cancellingASleepingTaskThrowsAtOnceAndTakesItsWakeUpOff() async throws {
        let clock = TestClock()
        let log = ClockLog()
        let sleeper = Task {
            do {
                try await clock.sleep(for: .seconds(1))
                log.entries.append("woke")
            } catch {
                log.entries.append("\(type(of: error))@\(clock.now.offset)")
            }
        }
        await untilSleeping(1, on: clock)
        #expect(clock.sleepCount == 1)
        sleeper.cancel()
        await sleeper.value
        #expect(log.entries == ["CancellationError@0.0 seconds"])
        #expect(clock.sleepCount == 0)
        try await clock.checkSuspension()
        await clock.advance(by: .seconds(2))
        #expect(log.entries == ["CancellationError@0.0 seconds"])
    }

    @Test func checkSuspensionThrowsWhileASleepWaits() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await untilSleeping(1, on: clock)
        await #expect(throws: SuspensionError.self) { try await clock.checkSuspension() }
        await clock.advance(by: .seconds(1))
        try await clock.checkSuspension()
        try await sleeper.value
    }

    @Test func runAdvancesUntilNothingWaits() async throws {
        let clock = TestClock()
        let ticks = Task {
            var offsets: [Duration] = []
            for await instant in clock.timer(interval: .seconds(1)).prefix(4) { offsets.append(instant.offset) }
            return offsets
        }
        await untilSleeping(1, on: clock)
        await clock.run(timeout: .seconds(60))  // real time: generous for a loaded machine
        #expect(await ticks.value == [.seconds(1), .seconds(2), .seconds(3), .seconds(4)])
        #expect(clock.now.offset == .seconds(4))
        try await clock.checkSuspension()
    }

    @Test func runGivesUpAfterItsTimeoutCancellingTheSleepsAndSayingSo() async {
        let clock = TestClock()
        let looping = Task {
            var slept = 0
            while true {
                do { try await clock.sleep(for: .seconds(1)) } catch { return (slept, "\(type(of: error))") }
                slept += 1
            }
        }
        await untilSleeping(1, on: clock)
        let issues = await recordedIssues { await clock.run(timeout: .milliseconds(200)) }
        #expect(issues.count == 1)
        #expect(issues.first?.hasPrefix("TestClock.run(timeout:) gave up after 200 ms of real time, at ") == true)
        #expect(issues.first?.contains(" still waiting (now cancelled).") == true)
        // The sleep waiting when the run gave up was cancelled; had the task been between two sleeps
        // then, its next one waits: cancelling the task ends that one.
        looping.cancel()
        let (slept, ending) = await looping.value
        #expect(slept > 0)
        #expect(ending == "CancellationError")
        #expect(clock.now.offset == .seconds(slept))
        #expect(clock.sleepCount == 0)
    }

    @Test func minimumResolutionIsZeroUntilSet() {
        let clock = TestClock()
        #expect(clock.minimumResolution == .zero)
        clock.minimumResolution = .milliseconds(1)
        #expect(clock.minimumResolution == .milliseconds(1))
    }

    @Test func instantsCountFromTheOrigin() {
        let start = TestClock<Duration>.Instant(offset: .seconds(2))
        #expect(start.advanced(by: .seconds(3)).offset == .seconds(5))
        #expect(start.duration(to: .init(offset: .seconds(1))) == .seconds(-1))
        #expect(start < start.advanced(by: .nanoseconds(1)))
        let clock: TestClock<Duration> = .test
        #expect(clock.now == .init())
    }

    @Test func aClockIsFreedOnceItsSleepsEnd() async throws {
        weak var weakClock: TestClock<Duration>?
        do {
            let clock = TestClock()
            weakClock = clock
            let woken = Task { try await clock.sleep(for: .seconds(1)) }
            let cancelled = Task { try await clock.sleep(for: .seconds(5)) }
            await untilSleeping(2, on: clock)
            await clock.advance(by: .seconds(1))
            try await woken.value
            cancelled.cancel()
            _ = await cancelled.result
        }
        #expect(weakClock == nil)
    }
}
