public import Foundation

/// The shared implementation of the schedulers' `Date`-based times, `RunLoop.SchedulerTimeType`
/// and `OperationQueue.SchedulerTimeType`.
///
/// As in Combine, the two are distinct types of the same shape, so times of one scheduler can't be
/// mixed with times of the other. Each declares only its stored `date` and its initializer; the
/// `Strideable` arithmetic below serves both.
@usableFromInline
protocol DateSchedulerTime: Strideable, Codable, Hashable, Sendable where Stride: TimeIntervalStride {
    /// The date represented by this time.
    var date: Date { get }

    /// Creates a time that represents the given date.
    init(_ date: Date)
}

extension DateSchedulerTime {
    /// Returns the distance to another time of the same scheduler type.
    ///
    /// - Parameter other: Another time of the same scheduler type.
    /// - Returns: The time interval between this time and the provided time, in seconds.
    @inlinable
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// Returns a scheduler time calculated by advancing this instance's time by the
    /// given interval.
    ///
    /// - Parameter n: A time interval to advance.
    /// - Returns: A time advanced by the given interval from this instance's time.
    @inlinable
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.timeInterval))
    }
}

/// The shared implementation of the strides of the `Date`-based scheduler times: a number of
/// seconds, as a `TimeInterval`.
///
/// Each stride declares its stored `magnitude`, `timeInterval`, `init(_:)` and its operators; the
/// literals and the ``SchedulerTimeIntervalConvertible`` factories below serve
/// both. The operators are not declared in this extension because an operator in a protocol
/// extension joins every `+` or `*` expression's overload set, in client code too, and slows down
/// type-checking everywhere.
@usableFromInline
protocol TimeIntervalStride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
    SchedulerTimeIntervalConvertible, Sendable
where FloatLiteralType == TimeInterval, IntegerLiteralType == TimeInterval, Magnitude == TimeInterval {
    /// The value of this time interval in seconds, with its sign.
    var timeInterval: TimeInterval { get }

    /// Creates a stride of the given number of seconds.
    init(_ timeInterval: TimeInterval)
}

extension TimeIntervalStride {
    /// Creates a scheduler time interval from an integer seconds value.
    ///
    /// - Parameter value: The number of seconds.
    @inlinable
    public init(integerLiteral value: TimeInterval) {
        self.init(value)
    }

    /// Creates a scheduler time interval from a floating-point seconds value.
    ///
    /// - Parameter value: The number of seconds.
    @inlinable
    public init(floatLiteral value: TimeInterval) {
        self.init(value)
    }

    /// Creates a scheduler time interval from a binary integer number of seconds.
    ///
    /// If `source` can't be represented exactly as a `TimeInterval`, the result is `nil`.
    ///
    /// - Parameter source: A number of seconds.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        self.init(value)
    }

    /// Converts a number of seconds into a stride.
    ///
    /// - Parameter s: A number of seconds.
    @inlinable
    public static func seconds(_ s: Int) -> Self {
        Self(TimeInterval(s))
    }

    /// Converts a number of seconds, as a floating-point value, into a stride.
    ///
    /// - Parameter s: A number of seconds.
    @inlinable
    public static func seconds(_ s: Double) -> Self {
        Self(s)
    }

    /// Converts a number of milliseconds into a stride of seconds.
    ///
    /// - Parameter ms: A number of milliseconds.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Self {
        Self(TimeInterval(ms) / 1_000)
    }

    /// Converts a number of microseconds into a stride of seconds.
    ///
    /// - Parameter us: A number of microseconds.
    @inlinable
    public static func microseconds(_ us: Int) -> Self {
        Self(TimeInterval(us) / 1_000_000)
    }

    /// Converts a number of nanoseconds into a stride of seconds.
    ///
    /// - Parameter ns: A number of nanoseconds.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Self {
        Self(TimeInterval(ns) / 1_000_000_000)
    }
}
