import Dispatch
import Streams
import StreamsTesting
import Testing

/// The time operators given negative and extreme strides, where Combine carries on: a stride below
/// zero is a date already passed, so the work runs at the scheduler's next turn, as for a zero
/// stride; the longest stride is a date the clock reaches only at its end. (Zero strides of the
/// operators that schedule once are pinned by each operator's own suite.) What repeats every zero
/// seconds or less, a timer or collecting by time, would never let virtual time move on: the test
/// scheduler stops it and fails the test, and nothing collected is lost.
@Suite struct IntervalEdgeTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    /// The test scheduler's report of an action repeating at one instant.
    static func sameInstantReport(_ seconds: Int) -> String {
        "TestScheduler ran an action repeating every \(seconds) s 1000 times at the same instant and stopped it"
    }

    /// A negative delay delivers at the scheduler's next turn, at the current time.
    @Test func negativeDelayDeliversAtTheNextTurn() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(Just(7).delay(for: .seconds(-5), scheduler: scheduler))
        #expect(recorder.events == [.subscription(at: .zero)])
        scheduler.advance()
        #expect(recorder.events == [.subscription(at: .zero), .value(7, at: .zero), .finished(at: .zero)])
    }

    /// A negative debounce sends the last value of each burst at the scheduler's next turn.
    @Test func negativeDebounceSendsTheLastValueAtTheNextTurn() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        subject.debounce(for: .milliseconds(-250), scheduler: scheduler).subscribe(subscriber)
        subject.send("a")
        subject.send("b")
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.values == ["b"])
        subject.send("c")
        scheduler.advance()
        #expect(subscriber.values == ["b", "c"])
    }

    /// A zero or negative throttle sends one value per turn of the scheduler: the latest, or the
    /// first, of those that arrived since the last one went out.
    @Test(arguments: [DispatchQueue.SchedulerTimeType.Stride.zero, .seconds(-1)])
    func throttleWithoutAnIntervalSendsOneValuePerTurn(interval: DispatchQueue.SchedulerTimeType.Stride) {
        for latest in [true, false] {
            let scheduler = DispatchQueue.test
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.throttle(for: interval, scheduler: scheduler, latest: latest).subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            scheduler.advance()
            #expect(subscriber.values == [latest ? 2 : 1], "latest: \(latest)")
            subject.send(3)
            subject.send(4)
            scheduler.advance()
            #expect(subscriber.values == [latest ? 2 : 1, latest ? 4 : 3], "latest: \(latest)")
        }
    }

    /// A negative timeout runs out at the scheduler's next turn: values that were still on their way
    /// are dropped, and upstream is cancelled.
    @Test func negativeTimeoutRunsOutAtTheNextTurn() {
        let scheduler = DispatchQueue.test
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(-1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    /// The longest stride is the end of the clock: a delay that long delivers nothing however far
    /// the clock moves, and everything when the scheduler runs to its end.
    @Test func theLongestDelayDeliversAtTheEndOfTheClock() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>()
        Just(7).delay(for: .nanoseconds(.max), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1_000_000_000))
        #expect(subscriber.events == [.subscription])
        scheduler.run()
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        #expect(scheduler.elapsed == .nanoseconds(.max))
    }

    /// The longest timeout and debounce never run out while the clock moves by any ordinary amount:
    /// values go through the timeout, and the debounce holds its value.
    @Test func theLongestTimeoutAndDebounceWait() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let timedOut = TestSubscriber<Int, Never>()
        let debounced = TestSubscriber<Int, Never>()
        subject.timeout(.seconds(Int.max), scheduler: scheduler).subscribe(timedOut)
        subject.debounce(for: .seconds(Int.max), scheduler: scheduler).subscribe(debounced)
        subject.send(1)
        scheduler.advance(by: .seconds(1_000_000_000))
        subject.send(2)
        scheduler.advance(by: .seconds(1_000_000_000))
        #expect(timedOut.events == [.subscription, .value(1), .value(2)])
        #expect(debounced.events == [.subscription])
    }

    /// The longest throttle lets the first value through and holds the next one, with the
    /// completion that waits for it, until the end of the clock.
    @Test(arguments: [true, false])
    func theLongestThrottleHoldsTheNextValueUntilTheEndOfTheClock(latest: Bool) {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recorder = scheduler.record(
            subject.throttle(for: .seconds(Int.max), scheduler: scheduler, latest: latest))
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(1_000_000_000))
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1_000_000_000))
        #expect(recorder.events == [.subscription(at: .zero), .value(1, at: .zero)])
        scheduler.run()
        let end = scheduler.startTime.distance(to: DispatchQueue.SchedulerTimeType(.distantFuture))
        #expect(
            recorder.events == [
                .subscription(at: .zero), .value(1, at: .zero), .value(latest ? 3 : 2, at: end), .finished(at: end),
            ])
    }

    /// Collecting by the longest time collects everything until the completion, which sends it.
    @Test func collectingByTheLongestTimeSendsEverythingWithTheCompletion() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let byTime = scheduler.record(subject.collect(.byTime(scheduler, .seconds(Int.max))))
        let byTimeOrCount = scheduler.record(subject.collect(.byTimeOrCount(scheduler, .nanoseconds(.max), 2)))
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(1_000_000_000))
        subject.send(completion: .finished)
        scheduler.advance()
        let finish = Stride.seconds(1_000_000_001)
        #expect(byTime.events == [.subscription(at: .zero), .value([1, 2, 3], at: finish), .finished(at: finish)])
        #expect(
            byTimeOrCount.events == [
                .subscription(at: .zero), .value([1, 2], at: .seconds(1)), .value([3], at: finish),
                .finished(at: finish),
            ])
    }

    /// A timer of the longest interval ticks only at the end of the clock, once, and a run ends there.
    @Test func aTimerOfTheLongestIntervalTicksOnceAtTheEndOfTheClock() {
        let scheduler = DispatchQueue.test
        let end = DispatchQueue.SchedulerTimeType(.distantFuture)
        var ticks: [DispatchQueue.SchedulerTimeType] = []
        let cancellable = scheduler.timerPublisher(every: .nanoseconds(.max)).autoconnect().sink { ticks.append($0) }
        scheduler.advance(by: .seconds(1_000_000_000))
        #expect(ticks == [])
        scheduler.run()
        #expect(ticks == [end])
        #expect(scheduler.scheduledCount == 0)
        cancellable.cancel()
    }

    /// A timer of zero seconds or less ticks at the instant it starts until the test scheduler stops
    /// it; the test fails with the interval named, and time moves on.
    @Test(arguments: [0, -2])
    func aTimerWithoutAnIntervalIsStoppedAndReported(seconds: Int) {
        let scheduler = DispatchQueue.test
        var ticks: [DispatchQueue.SchedulerTimeType] = []
        let cancellable = scheduler.timerPublisher(every: .seconds(seconds)).autoconnect().sink { ticks.append($0) }
        let issues = recordedIssues { scheduler.advance(by: .seconds(2)) }
        #expect(issues.count == 1)
        #expect(issues.first?.contains(Self.sameInstantReport(seconds)) == true, "\(issues)")
        let limit = TestSchedulerOf<DispatchQueue>.sameInstantRepetitionLimit
        #expect(ticks == Array(repeating: scheduler.startTime, count: limit + 1))
        #expect(scheduler.elapsed == .seconds(2))
        #expect(scheduler.scheduledCount == 0)
        cancellable.cancel()
    }

    /// Collecting every zero seconds or less sends what arrived before the repetition was stopped at
    /// once, and keeps the rest for the completion: the test fails, and no value is lost.
    @Test(arguments: [0, -2])
    func collectingWithoutAnIntervalIsStoppedAndReportedAndLosesNothing(seconds: Int) {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let byTime = scheduler.record(subject.collect(.byTime(scheduler, .seconds(seconds))))
        let byTimeOrCount = scheduler.record(subject.collect(.byTimeOrCount(scheduler, .seconds(seconds), 2)))
        let issues = recordedIssues {
            subject.send(1)
            subject.send(2)
            subject.send(3)
            scheduler.advance(by: .seconds(1))
        }
        #expect(issues.count == 2, "one report for each collect: \(issues)")
        #expect(issues.allSatisfy { $0.contains(Self.sameInstantReport(seconds)) }, "\(issues)")
        subject.send(4)
        subject.send(completion: .finished)
        scheduler.advance()
        let second = Stride.seconds(1)
        #expect(
            byTime.events == [
                .subscription(at: .zero), .value([1, 2, 3], at: .zero), .value([4], at: second), .finished(at: second),
            ])
        #expect(
            byTimeOrCount.events == [
                .subscription(at: .zero), .value([1, 2], at: .zero), .value([3], at: .zero), .value([4], at: second),
                .finished(at: second),
            ])
    }
}
