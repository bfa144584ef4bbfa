public import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop.
    ///
    /// It wraps a `Date`, so run loop times follow the wall clock.
    ///
    /// ```swift
    /// let start = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
    /// let later = start.advanced(by: .milliseconds(1500))
    /// print(later.date.timeIntervalSinceReferenceDate, start.distance(to: later).timeInterval)
    /// // Prints "1.5 1.5"
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Initializes a run loop scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        @inlinable
        public init(_ date: Date) {
            self.date = date
        }

        /// Returns the distance to another run loop scheduler time.
        ///
        /// - Parameter other: Another run loop time.
        /// - Returns: The time interval between this time and the provided time, in seconds.
        @inlinable
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
        }

        /// Returns a run loop scheduler time calculated by advancing this instance's time by the
        /// given interval.
        ///
        /// - Parameter n: A time interval to advance.
        /// - Returns: A run loop time advanced by the given interval from this instance's time.
        @inlinable
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// The interval by which run loop times advance, in seconds.
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

            /// Creates a run loop scheduler time interval from an integer seconds value.
            ///
            /// - Parameter value: The number of seconds.
            @inlinable
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates a run loop scheduler time interval from a floating-point seconds value.
            ///
            /// - Parameter value: The number of seconds.
            @inlinable
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates a run loop scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: The number of seconds.
            @inlinable
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// Creates a run loop scheduler time interval from a binary integer number of seconds.
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

    /// Options that affect the operation of the run loop scheduler: there are none.
    public struct SchedulerOptions: Sendable {}

    /// The run loop scheduler's definition of the current moment in time: `Date()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// The minimum tolerance allowed by the run loop scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0.0
    }

    /// Performs the action on this run loop at its next pass, in the default mode.
    ///
    /// Actions scheduled this way run in the order they were scheduled, while the run loop runs in
    /// the default mode. The run loop wakes up for them if it is waiting.
    ///
    /// ```swift
    /// RunLoop.main.schedule { print("on the main run loop") }
    /// RunLoop.main.run(until: Date() + 0.1)
    /// // Prints "on the main run loop"
    /// ```
    ///
    /// - Parameters:
    ///   - options: Ignored: the run loop scheduler takes no options.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        perform { action() }
        // Queueing a block does not wake a waiting run loop; a timer that is already due does.
        add(Timer(fire: Date.distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
    }

    /// Performs the action on this run loop, in the default mode, no earlier than the specified
    /// date.
    ///
    /// A one-shot `Timer` added to this run loop performs the action.
    ///
    /// ```swift
    /// let loop = RunLoop.main
    /// loop.schedule(after: loop.now.advanced(by: .seconds(1)), tolerance: .milliseconds(100), options: nil) {
    ///     print("a second later")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Ignored: the run loop scheduler takes no options.
    ///   - action: The closure to perform.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Performs the action on this run loop, in the default mode, at the specified date, then
    /// repeatedly at the specified interval, until cancelled.
    ///
    /// A repeating `Timer` added to this run loop performs the action. The returned
    /// ``AnyCancellable`` invalidates the timer when cancelled or released.
    ///
    /// ```swift
    /// let loop = RunLoop.main
    /// let ticking = loop.schedule(after: loop.now, interval: .seconds(1)) { print("tick") }
    /// // Prints "tick" once a second while the run loop runs, until:
    /// ticking.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Ignored: the run loop scheduler takes no options.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: An ``AnyCancellable`` that invalidates the timer.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in action() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}
