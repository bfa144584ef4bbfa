public import Foundation

/// A point in wall-clock time, used by schedulers that run actions at `Date`s.
///
/// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` are
/// both this type, each with its own scheduler as `Context`, so they stay distinct types that
/// can't be mixed up, as in Combine. `Context` only tells the two apart; nothing is stored for it.
///
/// ```swift
/// let start = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
/// let later = start.advanced(by: .milliseconds(1500))
/// print(later.date.timeIntervalSinceReferenceDate, start.distance(to: later).timeInterval)
/// // Prints "1.5 1.5"
/// ```
public struct DateSchedulerTime<Context>: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes a scheduler time with the given date.
    ///
    /// - Parameter date: The date to represent.
    @inlinable
    public init(_ date: Date) {
        self.date = date
    }

    /// Returns the distance to another time of the same scheduler type.
    ///
    /// - Parameter other: Another time of the same scheduler type.
    /// - Returns: The time interval between this time and the provided time, in seconds.
    @inlinable
    public func distance(to other: DateSchedulerTime) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// Returns a scheduler time calculated by advancing this instance's time by the
    /// given interval.
    ///
    /// - Parameter n: A time interval to advance.
    /// - Returns: A time advanced by the given interval from this instance's time.
    @inlinable
    public func advanced(by n: Stride) -> DateSchedulerTime {
        DateSchedulerTime(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which these scheduler times advance, in seconds.
    ///
    /// ```swift
    /// typealias Stride = RunLoop.SchedulerTimeType.Stride
    /// print(Stride.milliseconds(250).timeInterval, (2 as Stride).timeInterval)
    /// // Prints "0.25 2.0"
    /// ```
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
        SchedulerTimeIntervalConvertible, Sendable
    {
        /// The type used when evaluating floating-point literals: seconds.
        public typealias FloatLiteralType = TimeInterval

        /// The type used when evaluating integer literals: seconds.
        public typealias IntegerLiteralType = TimeInterval

        /// The type used for expressing the stride's magnitude: seconds.
        public typealias Magnitude = TimeInterval

        /// The value of this time interval in seconds.
        ///
        /// Unlike the magnitude of a number, it keeps the stride's sign.
        public var magnitude: TimeInterval

        /// The value of this time interval in seconds.
        @inlinable
        public var timeInterval: TimeInterval {
            magnitude
        }

        /// Creates a scheduler time interval from an integer seconds value.
        ///
        /// - Parameter value: The number of seconds.
        @inlinable
        public init(integerLiteral value: TimeInterval) {
            magnitude = value
        }

        /// Creates a scheduler time interval from a floating-point seconds value.
        ///
        /// - Parameter value: The number of seconds.
        @inlinable
        public init(floatLiteral value: TimeInterval) {
            magnitude = value
        }

        /// Creates a scheduler time interval from the given time interval.
        ///
        /// - Parameter timeInterval: The number of seconds.
        @inlinable
        public init(_ timeInterval: TimeInterval) {
            magnitude = timeInterval
        }

        /// Creates a scheduler time interval from a binary integer number of seconds.
        ///
        /// If `source` can't be represented exactly as a `TimeInterval`, the result is `nil`.
        ///
        /// - Parameter source: A number of seconds.
        @inlinable
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = TimeInterval(exactly: source) else { return nil }
            magnitude = value
        }

        /// Returns whether the first stride is shorter than the second.
        @inlinable
        public static func < (lhs: Stride, rhs: Stride) -> Bool {
            lhs.magnitude < rhs.magnitude
        }

        /// Multiplies two strides as numbers of seconds.
        @inlinable
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
            Stride(lhs.timeInterval * rhs.timeInterval)
        }

        /// Adds two strides.
        @inlinable
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
            Stride(lhs.magnitude + rhs.magnitude)
        }

        /// Subtracts one stride from another.
        @inlinable
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
            Stride(lhs.magnitude - rhs.magnitude)
        }

        /// Multiplies two strides as numbers of seconds and stores the result in the left-hand
        /// variable.
        @inlinable
        public static func *= (lhs: inout Stride, rhs: Stride) {
            lhs = lhs * rhs
        }

        /// Adds two strides and stores the result in the left-hand variable.
        @inlinable
        public static func += (lhs: inout Stride, rhs: Stride) {
            lhs = lhs + rhs
        }

        /// Subtracts one stride from another and stores the result in the left-hand variable.
        @inlinable
        public static func -= (lhs: inout Stride, rhs: Stride) {
            lhs = lhs - rhs
        }

        /// Converts a number of seconds into a stride.
        ///
        /// - Parameter s: A number of seconds.
        @inlinable
        public static func seconds(_ s: Int) -> Stride {
            Stride(TimeInterval(s))
        }

        /// Converts a number of seconds, as a floating-point value, into a stride.
        ///
        /// - Parameter s: A number of seconds.
        @inlinable
        public static func seconds(_ s: Double) -> Stride {
            Stride(s)
        }

        /// Converts a number of milliseconds into a stride of seconds.
        ///
        /// - Parameter ms: A number of milliseconds.
        @inlinable
        public static func milliseconds(_ ms: Int) -> Stride {
            Stride(TimeInterval(ms) / 1_000)
        }

        /// Converts a number of microseconds into a stride of seconds.
        ///
        /// - Parameter us: A number of microseconds.
        @inlinable
        public static func microseconds(_ us: Int) -> Stride {
            Stride(TimeInterval(us) / 1_000_000)
        }

        /// Converts a number of nanoseconds into a stride of seconds.
        ///
        /// - Parameter ns: A number of nanoseconds.
        @inlinable
        public static func nanoseconds(_ ns: Int) -> Stride {
            Stride(TimeInterval(ns) / 1_000_000_000)
        }
    }
}
