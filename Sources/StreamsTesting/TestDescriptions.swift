public import Foundation
public import Streams
public import Testing

// How Swift Testing shows StreamsTesting's values, and the strides of Streams' schedulers, when an
// expectation fails: `#expect(recorder.events == [...])` prints each operand with its
// `testDescription`, so times read as `1.5 s` or `250 ms` rather than `Stride(magnitude: 1500000000)`.
// The `description`s of the schedulers' strides stay as Combine prints them.

extension TestEvent: CustomTestStringConvertible {
    /// The same as ``description``: `value(1)`, `finished`, `failure(ParseError())`.
    public var testDescription: String {
        description
    }
}

extension Recorded: CustomTestStringConvertible {
    /// The same as ``description``: `value(1) at 1.5 s`.
    public var testDescription: String {
        description
    }
}

extension RecordedSubscription: CustomTestStringConvertible {
    /// The same as ``description``: `subscribed at 1 s, demands [max(1) at 1 s], cancelled at 2.5 s`.
    public var testDescription: String {
        description
    }
}

extension DispatchQueue.SchedulerTimeType.Stride: CustomTestStringConvertible {
    /// The stride in readable units, such as `1.5 s`, `250 ms` or `3 µs`, for Swift Testing's failure
    /// messages.
    ///
    /// The unit is the largest of s, ms, µs and ns in which the amount is at least 1; the amount is
    /// exact, without trailing zeros; zero is `0 s`. `description` still prints as Combine does.
    public var testDescription: String {
        ReadableTime.describe(self)
    }
}

extension RunLoop.SchedulerTimeType.Stride: CustomTestStringConvertible {
    /// The stride in readable units, such as `1.5 s` or `250 ms`, to the nanosecond, for Swift
    /// Testing's failure messages. `description` still prints as Combine does.
    public var testDescription: String {
        ReadableTime.describe(self)
    }
}

extension OperationQueue.SchedulerTimeType.Stride: CustomTestStringConvertible {
    /// The stride in readable units, such as `1.5 s` or `250 ms`, to the nanosecond, for Swift
    /// Testing's failure messages. `description` still prints as Combine does.
    public var testDescription: String {
        ReadableTime.describe(self)
    }
}
