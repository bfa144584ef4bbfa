import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// What the tasks of one test record, read and written on the main actor.
@MainActor
private final class Record<Element> {
    var values: [Element] = []
}

/// Milliseconds from `start` to the scheduler's current time.
private func milliseconds(since start: DispatchQueue.SchedulerTimeType, _ scheduler: TestSchedulerOf<DispatchQueue>)
    -> Int
{
    start.distance(to: scheduler.now).magnitude / 1_000_000
}

/// Every test runs on the main actor, and so does every task it starts: the tasks run only when the
/// test's `await` lets them, which makes each interleaving below the only one possible.
@Suite @MainActor struct SchedulerConcurrencyTests {
    // MARK: - Waiting for a duration

    @Test func waitingResumesWhenVirtualTimeReachesTheDeadlineAndNotBefore() async throws {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let wakes = Record<Int>()
        let task = Task {
            try await scheduler.pause(for: .seconds(1))
            wakes.values.append(milliseconds(since: start, scheduler))
        }
        await scheduler.advance(by: .milliseconds(999))
        #expect(wakes.values == [])
        #expect(scheduler.scheduledCount == 1)
        await scheduler.advance(by: .milliseconds(1))
        try await task.value
        #expect(wakes.values == [1_000])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theWakeUpIsOnTheSchedulerAsSoonAsTheWaitingTaskHasRunToItsWait() async {
        let scheduler = DispatchQueue.test
        let task = Task { try await scheduler.pause(for: .seconds(1)) }
        await Task.yield()
        #expect(scheduler.scheduledCount == 1)
        task.cancel()
        _ = await task.result
    }

    @Test func waitingUntilAnInstantResumesAtThatInstant() async throws {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let wakes = Record<Int>()
        let task = Task {
            try await scheduler.pause(until: start.advanced(by: .milliseconds(2_500)))
            wakes.values.append(milliseconds(since: start, scheduler))
        }
        await scheduler.advance(by: .seconds(2))
        #expect(wakes.values == [])
        await scheduler.advance(by: .seconds(2))
        try await task.value
        #expect(wakes.values == [2_500])
    }

    @Test func waitingForZeroResumesAtTheNextAdvance() async throws {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let task = Task { try await scheduler.pause(for: .zero) }
        await scheduler.advance()
        try await task.value
        #expect(scheduler.now == start)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func successiveWaitsInOneTaskAllRunWithinOneAdvance() async throws {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let wakes = Record<Int>()
        let task = Task {
            for _ in 0..<3 {
                try await scheduler.pause(for: .seconds(1))
                wakes.values.append(milliseconds(since: start, scheduler))
            }
        }
        await scheduler.advance(by: .seconds(10))
        try await task.value
        #expect(wakes.values == [1_000, 2_000, 3_000])
        #expect(milliseconds(since: start, scheduler) == 10_000)
    }

    @Test func cancellingAWaitingTaskThrowsCancellationErrorAndTakesTheWakeUpOffTheScheduler() async {
        let scheduler = DispatchQueue.test
        let task = Task { try await scheduler.pause(for: .seconds(1)) }
        await scheduler.advance()
        #expect(scheduler.scheduledCount == 1)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(scheduler.scheduledCount == 0)
        // The wake-up is gone: advancing past its date resumes nothing a second time.
        await scheduler.advance(by: .seconds(5))
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aTaskCancelledBeforeItWaitsThrowsAtOnceAndSchedulesNothing() async {
        let scheduler = DispatchQueue.test
        let task = Task { try await scheduler.pause(for: .seconds(1)) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancellingAfterTheWakeUpFiredStillThrowsCancellationError() async {
        let scheduler = DispatchQueue.test
        let task = Task { try await scheduler.pause(for: .seconds(1)) }
        await scheduler.advance()
        // The synchronous advance resumes the task but does not let it run before the cancellation.
        let advanceWithoutYielding: () -> Void = { scheduler.advance(by: .seconds(1)) }
        advanceWithoutYielding()
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func waitingOnTheImmediateSchedulerResumesAtOnce() async throws {
        // A hundred seconds asked, and the wait returns with no time passing for it: far less than
        // the hundred seconds even on a slow machine.
        let started = ContinuousClock.now
        try await ImmediateScheduler.shared.pause(for: .seconds(100))
        #expect(ContinuousClock.now - started < .seconds(50))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await ImmediateScheduler.shared.pause(for: .seconds(100))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test func waitingOnADispatchQueueResumesAfterTheDuration() async throws {
        let queue = DispatchQueue(label: "waiting")
        let start = DispatchTime.now()
        try await queue.pause(for: .milliseconds(5))
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 5_000_000)
        try await queue.pause(for: .zero)
        try await queue.pause(until: queue.now.advanced(by: .milliseconds(-5)))
    }

    @Test func cancellationRacingTheWakeUpOnADispatchQueueEndsEachWaitOnce() async {
        let queue = DispatchQueue(label: "racing", attributes: .concurrent)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                let task = Task.detached { try await queue.pause(for: .microseconds(index % 4 * 20)) }
                group.addTask {
                    if index % 2 == 0 { task.cancel() }
                    switch await task.result {
                    case .success: return true
                    case .failure(let error): return error is CancellationError
                    }
                }
            }
            var outcomes: [Bool] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { $0 })
    }

    // MARK: - Timer

    @Test func timerYieldsTheTimeOfEachTickExactly() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let ticks = Record<Int>()
        let task = Task {
            for await instant in scheduler.timer(interval: .seconds(2)).prefix(3) {
                ticks.values.append(start.distance(to: instant).magnitude / 1_000_000)
            }
        }
        await scheduler.advance(by: .milliseconds(1_999))
        #expect(ticks.values == [])
        await scheduler.advance(by: .milliseconds(1))
        #expect(ticks.values == [2_000])
        await scheduler.advance(by: .seconds(4))
        await task.value
        #expect(ticks.values == [2_000, 4_000, 6_000])
        // `prefix(3)` dropped the stream, which cancelled the repetition.
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func timerStopsWhenItsConsumerBreaksOut() async {
        let scheduler = DispatchQueue.test
        let task = Task {
            var count = 0
            for await _ in scheduler.timer(interval: .seconds(1)) {
                count += 1
                if count == 2 { break }
            }
            return count
        }
        await scheduler.advance(by: .seconds(5))
        #expect(await task.value == 2)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func timerStopsWhenTheConsumingTaskIsCancelled() async {
        let scheduler = DispatchQueue.test
        let ticks = Record<Int>()
        let task = Task {
            for await _ in scheduler.timer(interval: .seconds(1)) {
                ticks.values.append(ticks.values.count + 1)
            }
        }
        await scheduler.advance(by: .seconds(3))
        #expect(ticks.values == [1, 2, 3])
        #expect(scheduler.scheduledCount == 1)
        task.cancel()
        await task.value
        #expect(scheduler.scheduledCount == 0)
        await scheduler.advance(by: .seconds(3))
        #expect(ticks.values == [1, 2, 3])
    }

    @Test func droppingAnUnusedTimerStreamCancelsItsRepetition() {
        let scheduler = DispatchQueue.test
        var stream: AsyncStream<DispatchQueue.SchedulerTimeType>? = scheduler.timer(interval: .seconds(1))
        #expect(stream != nil)
        #expect(scheduler.scheduledCount == 1)
        stream = nil
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func timerBuffersTicksItsConsumerHasNotTakenYet() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let stream = scheduler.timer(interval: .seconds(1))
        await scheduler.advance(by: .seconds(3))
        var times: [Int] = []
        for await instant in stream.prefix(3) {
            times.append(start.distance(to: instant).magnitude / 1_000_000)
        }
        #expect(times == [1_000, 2_000, 3_000])
    }

    @Test func timerOnADispatchQueueTicks() async {
        let queue = DispatchQueue(label: "ticking")
        let start = queue.now
        var ticks: [DispatchQueue.SchedulerTimeType] = []
        for await tick in queue.timer(interval: .milliseconds(1)).prefix(3) {
            ticks.append(tick)
        }
        // Three ticks, each later than the last, the first one interval or more after the start.
        #expect(ticks.count == 3)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ticks.first.map { start.distance(to: $0) >= .milliseconds(1) } == true)
    }

    // MARK: - Measuring

    @Test func measureReturnsTheVirtualTimeTheWorkAdvanced() {
        let scheduler = DispatchQueue.test
        let elapsed = scheduler.measure { scheduler.advance(by: .milliseconds(750)) }
        #expect(elapsed == .milliseconds(750))
        #expect(scheduler.measure {} == .zero)
    }
}
