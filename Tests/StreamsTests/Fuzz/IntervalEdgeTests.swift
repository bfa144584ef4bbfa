import Dispatch
import Streams
import StreamsTesting
import Testing

/// The time operators given negative and extreme strides, where Combine carries on: a stride below
/// zero is a date already passed, so the work runs at the scheduler's next turn, as for a zero
/// stride; the longest stride is a date the clock reaches only at its end. (Zero strides are pinned
/// by each operator's own suite.)
@Suite struct IntervalEdgeTests {
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
}
