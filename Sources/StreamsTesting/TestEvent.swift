public import Streams

/// One thing that passes from a publisher to a subscriber: the subscription, a value, or the
/// completion.
///
/// Test subscribers record lists of events, and scripted test publishers are written as lists of
/// them, so a test can state a whole stream in one expression and compare it with `==` (events are
/// equatable when the values and the failure are).
///
/// For example, a test that a publisher skips negative numbers and stops at the first error can
/// state its expectation as a list:
///
/// ```swift
/// struct ParseError: Error, Equatable {}
///
/// @Test func positiveNumbersUntilTheFirstError() {
///     let subject = PassthroughSubject<Int, ParseError>()
///     let subscriber = TestSubscriber<Int, ParseError>()
///     subject.filter { $0 >= 0 }.subscribe(subscriber)
///
///     subject.send(1)
///     subject.send(-2)
///     subject.send(3)
///     subject.send(completion: .failure(ParseError()))
///
///     #expect(subscriber.events == [.subscription, .value(1), .value(3), .failure(ParseError())])
/// }
/// ```
///
/// ``finished`` and ``failure(_:)`` are shorthands for the two completions, so
/// `.completion(.finished)` and `.finished` are the same event.
public enum TestEvent<Input, Failure: Error> {
    /// The subscription arrived.
    case subscription
    /// A value arrived.
    case value(Input)
    /// The completion arrived.
    case completion(Subscribers.Completion<Failure>)

    /// The stream finished normally: the same as `.completion(.finished)`.
    public static var finished: Self {
        .completion(.finished)
    }

    /// The stream failed: the same as `.completion(.failure(error))`.
    ///
    /// - Parameter error: The error the stream failed with.
    public static func failure(_ error: Failure) -> Self {
        .completion(.failure(error))
    }

    /// The value, if this event is a value.
    public var input: Input? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The completion, if this event is a completion.
    public var completion: Subscribers.Completion<Failure>? {
        if case .completion(let completion) = self { return completion }
        return nil
    }

    /// Whether this event is the arrival of the subscription.
    public var isSubscription: Bool {
        if case .subscription = self { return true }
        return false
    }
}

extension TestEvent: Equatable where Input: Equatable, Failure: Equatable {}

extension TestEvent: Hashable where Input: Hashable, Failure: Hashable {}

extension TestEvent: Sendable where Input: Sendable {}

extension TestEvent: CustomStringConvertible {
    /// A short description, such as `value(1)`, `finished` or `failure(ParseError())`, for test
    /// failure messages.
    public var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }
}

/// A value together with the virtual time at which it happened.
///
/// Timed test subscribers record `Recorded` events, scripted test publishers are written as
/// `Recorded` events, and test publishers record each demand as a `Recorded` demand. The time is a
/// stride of the scheduler's time type, measured from the ``TestScheduler``'s start (or, for a cold
/// publisher's script, from the subscription), so `.seconds(2)` reads as "two seconds into the test".
///
/// Static shorthands build recorded events, values and demands, so an expected stream reads as a
/// timeline, with one spelling for a value wherever it appears — `.value(1, at: .seconds(2))` in a
/// test publisher's script, in recorded ``TimedTestSubscriber/events`` and in recorded
/// ``TimedTestSubscriber/valuesWithTimes`` alike (`Recorded(1, at: .seconds(2))` still works):
///
/// ```swift
/// @Test func aDebouncedSearchFiresOnceTypingPauses() {
///     let scheduler = DispatchQueue.test
///     let typing = scheduler.createHotPublisher([
///         .value("s", at: .milliseconds(100)),
///         .value("st", at: .milliseconds(200)),
///         .value("str", at: .milliseconds(700)),
///         .finished(at: .seconds(2)),
///     ])
///
///     let searches = scheduler.record(typing.debounce(for: .milliseconds(300), scheduler: scheduler))
///     scheduler.advance(by: .seconds(2))
///
///     #expect(searches.events == [
///         .subscription(at: .zero),
///         .value("st", at: .milliseconds(500)),
///         .value("str", at: .seconds(1)),
///         .finished(at: .seconds(2)),
///     ])
/// }
/// ```
///
/// Two recorded values are equal when both their times and their values are.
public struct Recorded<Time, Value> {
    /// When it happened: a stride since the test scheduler's start, or since the subscription for
    /// a cold publisher's script.
    public var time: Time

    /// What happened.
    public var value: Value

    /// Creates a record of `value` happening at `time`.
    ///
    /// ```swift
    /// let second = Recorded(42, at: DispatchQueue.SchedulerTimeType.Stride.seconds(1))
    /// ```
    ///
    /// - Parameters:
    ///   - value: What happened.
    ///   - time: When it happened.
    public init(_ value: Value, at time: Time) {
        self.time = time
        self.value = value
    }
}

extension Recorded: Equatable where Time: Equatable, Value: Equatable {}

extension Recorded: Hashable where Time: Hashable, Value: Hashable {}

extension Recorded: Sendable where Time: Sendable, Value: Sendable {}

extension Recorded: CustomStringConvertible {
    /// The value and its time, such as `value(1) at 1.5 s` or `max(2) at 250 ms`.
    ///
    /// Strides of the `DispatchQueue`, `RunLoop` and `OperationQueue` schedulers are written in the
    /// largest of s, ms, µs and ns in which the amount is at least 1, exactly, without trailing
    /// zeros (`1.5 s`, `250 ms`, `3 µs`; zero is `0 s`); other times as Swift describes them.
    public var description: String {
        "\(value) at \(ReadableTime.describe(time))"
    }
}

extension Recorded {
    /// `value` happening at `time`: the same as `Recorded(value, at: time)`.
    ///
    /// It lets recorded values be written with the spelling of scripted and recorded events, so
    /// `.value(3, at: .seconds(1))` reads the same in a test publisher's script, in a list of
    /// ``TimedTestSubscriber/events`` and in a list of ``TimedTestSubscriber/valuesWithTimes``:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let readings = scheduler.createHotPublisher([.value(3, at: .seconds(1)), .value(2, at: .seconds(2))])
    /// let recorder = scheduler.record(readings)
    /// scheduler.advance(by: .seconds(2))
    /// #expect(recorder.valuesWithTimes == [.value(3, at: .seconds(1)), .value(2, at: .seconds(2))])
    /// #expect(recorder.events == [.subscription(at: .zero), .value(3, at: .seconds(1)), .value(2, at: .seconds(2))])
    /// ```
    ///
    /// - Parameters:
    ///   - value: What happened.
    ///   - time: When it happened.
    public static func value(_ value: Value, at time: Time) -> Self {
        Recorded(value, at: time)
    }

    /// The subscription arriving at `time`.
    ///
    /// - Parameter time: When the subscription arrived.
    public static func subscription<Input, Failure>(at time: Time) -> Self
    where Value == TestEvent<Input, Failure> {
        Recorded(.subscription, at: time)
    }

    /// `value` arriving at `time`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - time: When it arrived.
    public static func value<Input, Failure>(_ value: Input, at time: Time) -> Self
    where Value == TestEvent<Input, Failure> {
        Recorded(.value(value), at: time)
    }

    /// `completion` arriving at `time`.
    ///
    /// - Parameters:
    ///   - completion: How the stream ended.
    ///   - time: When it ended.
    public static func completion<Input, Failure>(_ completion: Subscribers.Completion<Failure>, at time: Time) -> Self
    where Value == TestEvent<Input, Failure> {
        Recorded(.completion(completion), at: time)
    }

    /// The stream finishing at `time`.
    ///
    /// - Parameter time: When it finished.
    public static func finished<Input, Failure>(at time: Time) -> Self
    where Value == TestEvent<Input, Failure> {
        Recorded(.completion(.finished), at: time)
    }

    /// The stream failing with `error` at `time`.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - time: When it failed.
    public static func failure<Input, Failure>(_ error: Failure, at time: Time) -> Self
    where Value == TestEvent<Input, Failure> {
        Recorded(.completion(.failure(error)), at: time)
    }

    /// A request for `demand` more values at `time`.
    ///
    /// - Parameters:
    ///   - demand: How many more values were asked for.
    ///   - time: When they were asked for.
    public static func demand(_ demand: Subscribers.Demand, at time: Time) -> Self
    where Value == Subscribers.Demand {
        Recorded(demand, at: time)
    }
}
