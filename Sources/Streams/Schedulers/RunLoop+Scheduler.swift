public import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop.
    ///
    /// It wraps a `Date`, so run loop times follow the wall clock. As in Combine, it is a type of its
    /// own, so it can't be mixed up with the time of another `Date`-based scheduler.
    ///
    /// ```swift
    /// let start = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
    /// let later = start.advanced(by: .milliseconds(1500))
    /// print(later.date.timeIntervalSinceReferenceDate, start.distance(to: later).timeInterval)
    /// // Prints "1.5 1.5"
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerTime {
        /// The date represented by this type.
        public var date: Date

        /// Initializes a run loop scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        @inlinable
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval by which run loop scheduler times advance, in seconds.
        ///
        /// ```swift
        /// typealias Stride = RunLoop.SchedulerTimeType.Stride
        /// print(Stride.milliseconds(250).timeInterval, (2 as Stride).timeInterval)
        /// // Prints "0.25 2.0"
        /// ```
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable, TimeIntervalStride
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

            /// Creates a scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: The number of seconds.
            @inlinable
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// Returns whether the first stride is shorter than the second.
            @inlinable
            public static func < (lhs: Stride, rhs: Stride) -> Bool {
                lhs.magnitude < rhs.magnitude
            }

            /// Multiplies two strides as numbers of seconds.
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
    /// An action scheduled on `RunLoop.main` runs only while the main thread runs the main run loop
    /// in the default mode. An app's event loop does that; a command-line tool, a server or a test on
    /// Linux must do it on the main thread: `RunLoop.main.run(until:)` for as long as the work needs (in
    /// a tool, or in an XCTest test method, which runs on the main thread), or `RunLoop.main.run()` at
    /// the end of a tool that never returns. XCTest's `wait(for:timeout:)` runs the main run loop while
    /// it waits. Swift Testing does not, and on Linux its tests, `@MainActor` ones included, do not run
    /// on the main thread, so they cannot: there, inject the scheduler and pass a test scheduler. See
    /// <doc:ThreadsAndSchedulers#When-the-main-run-loop-must-run>.
    ///
    /// - Parameters:
    ///   - options: Ignored: the run loop scheduler takes no options.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        perform { action() }
        // Queueing a block does not wake a waiting run loop; a timer that is already due does. The
        // main run loop scheduled from the main thread is not waiting: it is either running this very
        // code or not running at all, and it performs queued blocks on its next pass either way, so
        // it needs no wake-up (a timer costs about 16 µs more per action than the block alone).
        if !(Thread.isMainThread && self === RunLoop.main) {
            add(Timer(fire: Date.distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
        }
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
    /// On `RunLoop.main`, the action runs only while the main thread runs the main run loop; see
    /// ``schedule(options:_:)``.
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
    /// On `RunLoop.main`, the action runs only while the main thread runs the main run loop; see
    /// ``schedule(options:_:)``.
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
