public import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue.
    ///
    /// It wraps a `DispatchTime`, an instant on the clock that counts nanoseconds since boot.
    ///
    /// ```swift
    /// let queue = DispatchQueue.main
    /// let start = queue.now
    /// let deadline = start.advanced(by: .milliseconds(1500))
    /// print(start.distance(to: deadline).magnitude)
    /// // Prints "1500000000"
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        ///
        /// ```swift
        /// let inOneSecond = DispatchQueue.SchedulerTimeType(.now() + 1)
        /// ```
        ///
        /// - Parameter time: The dispatch time to represent.
        @inlinable
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Creates a dispatch queue time by decoding its uptime in nanoseconds.
        ///
        /// - Parameter decoder: The decoder to read the single `UInt64` value from.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        /// Encodes this time as its uptime in nanoseconds, a single `UInt64` value.
        ///
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Returns the distance to another dispatch queue time.
        ///
        /// A distance too long to count in nanoseconds in an `Int`, such as the one to or from
        /// `DispatchTime.distantFuture`, is `.nanoseconds(.max)`, whichever its direction.
        ///
        /// - Parameter other: Another dispatch queue time.
        /// - Returns: The time interval between this time and the provided time.
        @inlinable
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.rawValue
            let end = other.dispatchTime.rawValue
            let length = end >= start ? end - start : start - end
            guard length <= UInt64(Int.max) else { return .nanoseconds(.max) }
            return .nanoseconds(end >= start ? Int(length) : -Int(length))
        }

        /// Returns a dispatch queue scheduler time calculated by advancing this instance's time by
        /// the given interval.
        ///
        /// Advancing by `.nanoseconds(.max)` gives `DispatchTime.distantFuture`; going back before
        /// boot stops at the earliest representable time.
        ///
        /// - Parameter n: A time interval to advance.
        /// - Returns: A dispatch queue time advanced by the given interval from this instance's time.
        @inlinable
        public func advanced(by n: Stride) -> SchedulerTimeType {
            if n.magnitude == .max {
                return SchedulerTimeType(.distantFuture)
            }
            // `-Int.max` rather than `Int.min`, whose negation the dispatch clock cannot take.
            return SchedulerTimeType(dispatchTime + .nanoseconds(Swift.max(n.magnitude, -Int.max)))
        }

        /// Returns whether two dispatch queue times are the same instant.
        @inlinable
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime == rhs.dispatchTime
        }

        /// Returns whether the first time comes before the second, by their dispatch times.
        ///
        /// Instants are ordered as the dispatch clock orders them, so `DispatchTime.distantFuture`
        /// comes after every other instant. The order cannot be read from the sign of
        /// ``distance(to:)`` alone, which is `.nanoseconds(.max)` both to and from the distant future.
        @inlinable
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime < rhs.dispatchTime
        }

        /// Hashes the instant's raw dispatch time.
        ///
        /// - Parameter hasher: The hasher to use when combining the components of this instance.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.rawValue)
        }

        /// A type that represents the distance between two dispatch queue times, counted in
        /// nanoseconds.
        ///
        /// Literals count seconds, and so does multiplication: an integer literal factor scales a
        /// stride.
        ///
        /// ```swift
        /// typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        /// let half: Stride = 0.5
        /// print(half.magnitude, (half * 4).magnitude, Stride.milliseconds(3).magnitude)
        /// // Prints "500000000 2000000000 3000000"
        /// ```
        ///
        /// Conversions clamp: `.seconds(Int.max)` is `.nanoseconds(.max)`.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// If created via floating point literal, the value is converted to nanoseconds via
            /// multiplication.
            public typealias FloatLiteralType = Double

            /// Integer literals count seconds, converted to nanoseconds.
            public typealias IntegerLiteralType = Int

            /// A type that can represent the absolute value of any possible value of the
            /// conforming type.
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds.
            ///
            /// Unlike the magnitude of a number, it keeps the stride's sign.
            public var magnitude: Int

            /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
            @inlinable
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            @inlinable
            init(nanosecondCount: Int) {
                magnitude = nanosecondCount
            }

            /// Creates a dispatch queue time interval from the given dispatch time interval.
            ///
            /// `DispatchTimeInterval.never` and intervals too long for an `Int` of nanoseconds
            /// become `.nanoseconds(.max)` (or `.min` for negative ones).
            ///
            /// ```swift
            /// let stride = DispatchQueue.SchedulerTimeType.Stride(.milliseconds(20))
            /// print(stride.magnitude)
            /// // Prints "20000000"
            /// ```
            ///
            /// - Parameter timeInterval: A dispatch time interval.
            @inlinable
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let seconds): self = .seconds(seconds)
                case .milliseconds(let milliseconds): self = .milliseconds(milliseconds)
                case .microseconds(let microseconds): self = .microseconds(microseconds)
                case .nanoseconds(let nanoseconds): self = .nanoseconds(nanoseconds)
                case .never: self = .nanoseconds(.max)
                #if canImport(Darwin)
                    @unknown default: self = .nanoseconds(.max)
                #endif
                }
            }

            /// Creates a dispatch queue time interval from a floating-point seconds value.
            ///
            /// - Parameter value: The number of seconds, as a `Double`.
            @inlinable
            public init(floatLiteral value: Double) {
                self = .seconds(value)
            }

            /// Creates a dispatch queue time interval from an integer seconds value.
            ///
            /// - Parameter value: The number of seconds, as an `Int`.
            @inlinable
            public init(integerLiteral value: Int) {
                self = .seconds(value)
            }

            /// Creates a dispatch queue time interval from a binary integer number of seconds.
            ///
            /// If `source` can't be represented as an `Int`, the result is `nil`.
            ///
            /// - Parameter source: A binary integer representing a time interval in seconds.
            @inlinable
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                self = .seconds(seconds)
            }

            enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            /// Returns whether the first stride is shorter than the second.
            @inlinable
            public static func < (lhs: Stride, rhs: Stride) -> Bool {
                lhs.magnitude < rhs.magnitude
            }

            /// Multiplies two strides as durations in seconds.
            ///
            /// Since literals count seconds, multiplying by an integer literal scales:
            /// `.milliseconds(250) * 4` is one second. The product of two short strides can be
            /// shorter than a nanosecond and so `0`; a product too long for an `Int` of nanoseconds
            /// is clamped to `.nanoseconds(.max)` or `.nanoseconds(.min)`.
            @inlinable
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let product = lhs.magnitude.multipliedFullWidth(by: rhs.magnitude)
                let nanosecondsPerSecond = 1_000_000_000
                // The quotient fits in an Int exactly when the high word stays within half the divisor.
                guard product.high < nanosecondsPerSecond / 2, product.high >= -(nanosecondsPerSecond / 2) else {
                    return Stride(nanosecondCount: product.high < 0 ? .min : .max)
                }
                let quotient = nanosecondsPerSecond.dividingFullWidth(product).quotient
                return Stride(nanosecondCount: quotient)
            }

            /// Adds two strides.
            @inlinable
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanosecondCount: lhs.magnitude + rhs.magnitude)
            }

            /// Subtracts one stride from another.
            @inlinable
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanosecondCount: lhs.magnitude - rhs.magnitude)
            }

            /// Subtracts one stride from another and stores the result in the left-hand variable.
            @inlinable
            public static func -= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs - rhs
            }

            /// Multiplies two strides as durations in seconds and stores the result in the
            /// left-hand variable.
            @inlinable
            public static func *= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs * rhs
            }

            /// Adds two strides and stores the result in the left-hand variable.
            @inlinable
            public static func += (lhs: inout Stride, rhs: Stride) {
                lhs = lhs + rhs
            }

            /// Converts a number of seconds, as a floating-point value, into a stride.
            ///
            /// The nanoseconds are truncated toward zero and clamped to `Int`'s range; `nan` gives
            /// `0`.
            ///
            /// - Parameter s: A number of seconds.
            /// - Returns: The interval in nanoseconds.
            @inlinable
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = s * 1_000_000_000
                if nanoseconds.isNaN { return Stride(nanosecondCount: 0) }
                if nanoseconds >= Double(Int.max) { return Stride(nanosecondCount: .max) }
                if nanoseconds <= Double(Int.min) { return Stride(nanosecondCount: .min) }
                return Stride(nanosecondCount: Int(nanoseconds))
            }

            /// Converts a number of seconds into a stride, clamped to `Int`'s range of nanoseconds.
            ///
            /// - Parameter s: A number of seconds.
            /// - Returns: The interval in nanoseconds.
            @inlinable
            public static func seconds(_ s: Int) -> Stride {
                Stride(nanosecondCount: clampedProduct(s, 1_000_000_000))
            }

            /// Converts a number of milliseconds into a stride, clamped to `Int`'s range of
            /// nanoseconds.
            ///
            /// - Parameter ms: A number of milliseconds.
            /// - Returns: The interval in nanoseconds.
            @inlinable
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(nanosecondCount: clampedProduct(ms, 1_000_000))
            }

            /// Converts a number of microseconds into a stride, clamped to `Int`'s range of
            /// nanoseconds.
            ///
            /// - Parameter us: A number of microseconds.
            /// - Returns: The interval in nanoseconds.
            @inlinable
            public static func microseconds(_ us: Int) -> Stride {
                Stride(nanosecondCount: clampedProduct(us, 1_000))
            }

            /// Converts a number of nanoseconds into a stride.
            ///
            /// - Parameter ns: A number of nanoseconds.
            /// - Returns: The interval in nanoseconds.
            @inlinable
            public static func nanoseconds(_ ns: Int) -> Stride {
                Stride(nanosecondCount: ns)
            }

            /// `value * unit` (with `unit > 0`), or the nearest bound of `Int` if that overflows.
            @inlinable
            static func clampedProduct(_ value: Int, _ unit: Int) -> Int {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                guard overflow else { return product }
                return value > 0 ? .max : .min
            }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    ///
    /// ```swift
    /// let group = DispatchGroup()
    /// DispatchQueue.global().schedule(options: .init(qos: .utility, group: group)) {
    ///     print("in the group")
    /// }
    /// group.wait()
    /// ```
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS

        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags

        /// The dispatch group, if any, that should be used for performing actions.
        ///
        /// Only actions performed at the next opportunity join the group; dated and repeating
        /// actions do not.
        public var group: DispatchGroup?

        /// Creates dispatch queue scheduler options.
        ///
        /// - Parameters:
        ///   - qos: The quality of service to perform actions with.
        ///   - flags: The work item flags to perform actions with.
        ///   - group: The dispatch group that actions performed at the next opportunity join.
        @inlinable
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The minimum tolerance allowed by the dispatch queue scheduler: zero.
    @inlinable
    public var minimumTolerance: SchedulerTimeType.Stride {
        .nanoseconds(0)
    }

    /// The dispatch queue scheduler's definition of the current moment in time: `DispatchTime.now()`.
    @inlinable
    public var now: SchedulerTimeType {
        SchedulerTimeType(.now())
    }

    /// Performs the action asynchronously on this queue at the next possible opportunity.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "serial")
    /// queue.schedule(options: .init(qos: .userInitiated)) { print("first") }
    /// queue.schedule { print("second") }
    /// // Prints:
    /// // first
    /// // second
    /// ```
    ///
    /// On `DispatchQueue.main`, actions run only while something serves the main queue. An app's
    /// event loop does that; a command-line tool or a server on Linux must see to it: call
    /// `RunLoop.main.run(until:)` on the main thread to serve it for a while, call `dispatchMain()` at
    /// the end of a tool that never returns, or `await` in the tool's top-level code. In tests, XCTest's
    /// `wait(for:timeout:)` runs the main run loop, and with it the main queue, while it waits; a Swift
    /// Testing test sees the main queue served while it is suspended at an `await`. See
    /// <doc:ThreadsAndSchedulers#When-the-main-run-loop-must-run>.
    ///
    /// - Parameters:
    ///   - options: The quality of service, flags and group to submit the action with, or `nil`.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action() }
    }

    /// Performs the action asynchronously on this queue, no earlier than the specified date.
    ///
    /// ```swift
    /// let queue = DispatchQueue.main
    /// queue.schedule(after: queue.now.advanced(by: .seconds(1)), tolerance: .zero, options: nil) {
    ///     print("a second later")
    /// }
    /// ```
    ///
    /// On `DispatchQueue.main`, the action runs only while something serves the main queue; see
    /// ``schedule(options:_:)``.
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: Ignored: the queue performs the action as soon as it can after `date`.
    ///   - options: The quality of service and flags to submit the action with, or `nil`; the group
    ///     is ignored.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            action()
        }
    }

    /// Performs the action on this queue at the specified date, then repeatedly at the specified
    /// interval, until cancelled.
    ///
    /// A dispatch timer source drives the repetition. The returned ``AnyCancellable`` keeps the
    /// timer alive: cancel it, or release it, to stop the timer.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "ticks")
    /// let ticking = queue.schedule(after: queue.now, interval: .milliseconds(100)) { print("tick") }
    /// // Prints "tick" ten times a second until:
    /// ticking.cancel()
    /// ```
    ///
    /// On `DispatchQueue.main`, the action runs only while something serves the main queue; see
    /// ``schedule(options:_:)``.
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: The timer's leeway.
    ///   - options: The quality of service and flags of the timer's handler, or `nil`; the group is
    ///     ignored.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: An ``AnyCancellable`` that cancels the timer.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], handler: action)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
