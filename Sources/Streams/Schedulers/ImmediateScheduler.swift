/// A scheduler for performing synchronous actions.
///
/// The immediate scheduler performs every action at once, on the thread that schedules it, before
/// `schedule` returns. It ignores dates, tolerances and intervals: an action scheduled for later
/// runs now, and a repeating action runs once.
///
/// ```swift
/// let scheduler = ImmediateScheduler.shared
/// print("before")
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { print("action") }
/// print("after")
/// // Prints:
/// // before
/// // action
/// // after
/// ```
///
/// It is useful where an operator wants a scheduler but the work should stay synchronous, for
/// example in tests. You cannot create an immediate scheduler: use ``shared``.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type used by the immediate scheduler.
    ///
    /// Time does not pass for the immediate scheduler: every instant equals every other, and the
    /// distance between two of them is always zero.
    ///
    /// ```swift
    /// let now = ImmediateScheduler.shared.now
    /// print(now == now.advanced(by: 100))
    /// // Prints "true"
    /// ```
    public struct SchedulerTimeType: Strideable, Sendable {
        @inlinable
        init() {}

        /// Returns the distance to another immediate scheduler time; this distance is always `0` in
        /// the context of an immediate scheduler.
        ///
        /// - Parameter other: The other scheduler time.
        /// - Returns: `0`, as a `Stride`.
        @inlinable
        public func distance(to other: SchedulerTimeType) -> Stride {
            0
        }

        /// Advances the time by the specified amount; this is meaningless in the context of an
        /// immediate scheduler.
        ///
        /// - Parameter n: The amount to advance by; the immediate scheduler ignores it.
        /// - Returns: An immediate scheduler time, equal to every other.
        @inlinable
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType()
        }

        /// The increment by which the immediate scheduler counts time.
        ///
        /// A stride holds an integer, but since the immediate scheduler never waits, every
        /// conversion from a duration (`seconds(_:)`, `milliseconds(_:)`, ...) gives
        /// `0`. Only strides built from numbers carry a value:
        ///
        /// ```swift
        /// typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        /// print(Stride.seconds(5).magnitude, Stride(5).magnitude, (2.9 as Stride).magnitude)
        /// // Prints "0 5 2"
        /// ```
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double

            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int

            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval.
            ///
            /// Unlike the magnitude of a number, it keeps the stride's sign.
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given time interval.
            ///
            /// - Parameter value: The value of the interval.
            @inlinable
            public init(_ value: Int) {
                magnitude = value
            }

            /// Creates an immediate scheduler time interval from an integer seconds value.
            ///
            /// - Parameter value: The value of the interval.
            @inlinable
            public init(integerLiteral value: Int) {
                self.init(value)
            }

            /// Creates an immediate scheduler time interval from a floating-point seconds value.
            ///
            /// The value is truncated toward zero: `2.9` makes a stride of `2`.
            ///
            /// - Parameter value: The value of the interval.
            @inlinable
            public init(floatLiteral value: Double) {
                self.init(Int(value))
            }

            /// Creates an immediate scheduler time interval from a binary integer type.
            ///
            /// If `source` can't be represented as an `Int`, the result is `nil`.
            ///
            /// - Parameter source: The value of the interval.
            @inlinable
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(value)
            }

            /// Returns whether the first stride is shorter than the second.
            @inlinable
            public static func < (lhs: Stride, rhs: Stride) -> Bool {
                lhs.magnitude < rhs.magnitude
            }

            /// Multiplies two strides' values.
            @inlinable
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(lhs.magnitude * rhs.magnitude)
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

            /// Subtracts one stride from another and stores the result in the left-hand variable.
            @inlinable
            public static func -= (lhs: inout Stride, rhs: Stride) {
                lhs.magnitude -= rhs.magnitude
            }

            /// Multiplies two strides' values and stores the result in the left-hand variable.
            @inlinable
            public static func *= (lhs: inout Stride, rhs: Stride) {
                lhs.magnitude *= rhs.magnitude
            }

            /// Adds two strides and stores the result in the left-hand variable.
            @inlinable
            public static func += (lhs: inout Stride, rhs: Stride) {
                lhs.magnitude += rhs.magnitude
            }

            /// Returns a stride of `0`: the immediate scheduler does not measure seconds.
            ///
            /// - Parameter s: A number of seconds, ignored.
            @inlinable
            public static func seconds(_ s: Int) -> Stride {
                0
            }

            /// Returns a stride of `0`: the immediate scheduler does not measure seconds.
            ///
            /// - Parameter s: A number of seconds, ignored.
            @inlinable
            public static func seconds(_ s: Double) -> Stride {
                0
            }

            /// Returns a stride of `0`: the immediate scheduler does not measure milliseconds.
            ///
            /// - Parameter ms: A number of milliseconds, ignored.
            @inlinable
            public static func milliseconds(_ ms: Int) -> Stride {
                0
            }

            /// Returns a stride of `0`: the immediate scheduler does not measure microseconds.
            ///
            /// - Parameter us: A number of microseconds, ignored.
            @inlinable
            public static func microseconds(_ us: Int) -> Stride {
                0
            }

            /// Returns a stride of `0`: the immediate scheduler does not measure nanoseconds.
            ///
            /// - Parameter ns: A number of nanoseconds, ignored.
            @inlinable
            public static func nanoseconds(_ ns: Int) -> Stride {
                0
            }
        }
    }

    /// A type that defines options accepted by the immediate scheduler: there are none, so the only
    /// value to pass is `nil`.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    ///
    /// You cannot create instances of the immediate scheduler yourself. Use only the shared
    /// instance.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.schedule { print("now") }
    /// // Prints "now"
    /// ```
    public static let shared = ImmediateScheduler()

    @inlinable
    init() {}

    /// The immediate scheduler's definition of the current moment in time.
    @inlinable
    public var now: SchedulerTimeType {
        SchedulerTimeType()
    }

    /// The minimum tolerance allowed by the immediate scheduler: `0`.
    @inlinable
    public var minimumTolerance: SchedulerTimeType.Stride {
        0
    }

    /// Performs the action at once, before returning.
    ///
    /// - Parameters:
    ///   - options: Always `nil`: the immediate scheduler takes no options.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Performs the action at once, before returning.
    ///
    /// The immediate scheduler ignores `date` and `tolerance`.
    ///
    /// - Parameters:
    ///   - date: Ignored.
    ///   - tolerance: Ignored.
    ///   - options: Always `nil`: the immediate scheduler takes no options.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Performs the action once, at once, before returning.
    ///
    /// The immediate scheduler ignores `date`, `interval` and `tolerance`: the action does not
    /// repeat.
    ///
    /// ```swift
    /// let scheduler = ImmediateScheduler.shared
    /// let cancellable = scheduler.schedule(after: scheduler.now, interval: 1) { print("once") }
    /// // Prints "once"
    /// ```
    ///
    /// - Parameters:
    ///   - date: Ignored.
    ///   - interval: Ignored.
    ///   - tolerance: Ignored.
    ///   - options: Always `nil`: the immediate scheduler takes no options.
    ///   - action: The closure to perform.
    /// - Returns: ``Subscriptions/empty``, whose cancellation does nothing.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
