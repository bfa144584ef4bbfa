import Dispatch
public import Foundation

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue.
    ///
    /// It wraps a `Date`, so operation queue times follow the wall clock. As in Combine, it is a type of its
    /// own, so it can't be mixed up with the time of another `Date`-based scheduler.
    ///
    /// ```swift
    /// let start = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
    /// let later = start.advanced(by: .milliseconds(1500))
    /// print(later.date.timeIntervalSinceReferenceDate, start.distance(to: later).timeInterval)
    /// // Prints "1.5 1.5"
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerTime {
        /// The date represented by this type.
        public var date: Date

        /// Initializes an operation queue scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        @inlinable
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval by which operation queue scheduler times advance, in seconds.
        ///
        /// ```swift
        /// typealias Stride = OperationQueue.SchedulerTimeType.Stride
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

    /// Options that affect the operation of the operation queue scheduler: there are none.
    public struct SchedulerOptions: Sendable {}

    /// The operation queue scheduler's definition of the current moment in time: `Date()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// The minimum tolerance allowed by the operation queue scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0.0
    }

    /// Adds an operation that performs the action to this queue.
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// queue.schedule { print("in an operation") }
    /// queue.waitUntilAllOperationsAreFinished()
    /// // Prints "in an operation"
    /// ```
    ///
    /// - Parameters:
    ///   - options: Ignored: the operation queue scheduler takes no options.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        // A scheduler's contract is to run the action on its own context, exactly as Combine's does.
        nonisolated(unsafe) let action = action
        addOperation(BlockOperation { action() })
    }

    /// Adds an operation that performs the action to this queue, which becomes ready to run at the
    /// specified date.
    ///
    /// The operation is in the queue from the start: it counts in `operationCount`,
    /// `waitUntilAllOperationsAreFinished()` waits for it, and `cancelAllOperations()` cancels it.
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// queue.schedule(after: queue.now.advanced(by: .seconds(1))) { print("a second later") }
    /// queue.waitUntilAllOperationsAreFinished()
    /// // Prints "a second later"
    /// ```
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: Ignored.
    ///   - options: Ignored: the operation queue scheduler takes no options.
    ///   - action: The closure to perform.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayedActionOperation(action)
        addOperation(operation)
        operation.becomeReady(at: date.date)
    }

    /// Performs the action on this queue at the specified date, then repeatedly at the specified
    /// interval, until cancelled.
    ///
    /// Each performance is an operation of its own, added to the queue ahead of its date as in
    /// ``schedule(after:tolerance:options:_:)``; when it has run, the next one is added. A
    /// performance that runs late does not make the next ones run closer together: the next is
    /// due one interval after the date the late one was due, or at once if that date has passed.
    /// The returned ``AnyCancellable`` stops the repetition, and cancels the pending operation,
    /// when cancelled or released.
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// let ticking = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
    /// // Prints "tick" once a second until:
    /// ticking.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: Ignored.
    ///   - options: Ignored: the operation queue scheduler takes no options.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: An ``AnyCancellable`` that stops the repetition.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repetition = RepeatingOperations(queue: self, interval: interval.timeInterval, action: action)
        repetition.enqueue(dueAt: date.date)
        return AnyCancellable(repetition)
    }
}

/// An operation that performs an action once it is due: it stays in its queue, not ready, until
/// ``becomeReady(at:)``'s date has come, or until it is cancelled.
// @unchecked Sendable (as every Operation): `action` and `isDue` are guarded by `lock`.
private final class DelayedActionOperation: Operation, Cancellable, @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var action: (() -> Void)?
    /// Guarded by `lock`.
    private var isDue = false

    init(_ action: @escaping () -> Void) {
        self.action = action
        super.init()
    }

    /// Makes the operation ready at `date`. Called once the operation is in its queue, so the
    /// queue sees the change of readiness.
    func becomeReady(at date: Date) {
        DispatchQueue.global().asyncAfter(deadline: .now() + date.timeIntervalSinceNow) { [weak self] in
            self?.markDue()
        }
    }

    private func markDue() {
        willChangeValue(forKey: "isReady")
        lock.withLock { isDue = true }
        didChangeValue(forKey: "isReady")
    }

    override var isReady: Bool {
        // A cancelled operation is ready at once, so its queue can finish it without waiting.
        super.isReady && (lock.withLock { isDue } || isCancelled)
    }

    override func main() {
        guard let action = lock.withLock({ action.take() }) else { return }
        action()
    }

    override func cancel() {
        let action = lock.withLock { self.action.take() }
        super.cancel()
        withExtendedLifetime(action) {}
    }
}

/// The repetition behind `OperationQueue.schedule(after:interval:tolerance:options:_:)`: one
/// ``DelayedActionOperation`` at a time, each adding the next once it has performed the action.
// @unchecked Sendable: every mutable stored property is guarded by `lock`.
private final class RepeatingOperations: Cancellable, @unchecked Sendable {
    private let lock = Lock()
    private let interval: TimeInterval
    /// Guarded by `lock`; `nil` once cancelled, as are `queue` and `pending`.
    private var action: (() -> Void)?
    /// Guarded by `lock`.
    private var queue: OperationQueue?
    /// Guarded by `lock`.
    private var pending: DelayedActionOperation?

    init(queue: OperationQueue, interval: TimeInterval, action: @escaping () -> Void) {
        self.queue = queue
        self.interval = interval
        self.action = action
    }

    /// Adds the operation for the performance due at `date`, unless cancelled.
    func enqueue(dueAt date: Date) {
        let operation = DelayedActionOperation { self.perform(dueAt: date) }
        let queue: OperationQueue? = lock.withLock {
            guard action != nil else { return nil }
            pending = operation
            return self.queue
        }
        guard let queue else { return }
        queue.addOperation(operation)
        operation.becomeReady(at: date)
    }

    private func perform(dueAt date: Date) {
        guard let action = lock.withLock({ action }) else { return }
        action()
        enqueue(dueAt: max(date.addingTimeInterval(interval), Date()))
    }

    func cancel() {
        let (action, operation) = lock.withLock { () -> ((() -> Void)?, DelayedActionOperation?) in
            queue = nil
            return (self.action.take(), pending.take())
        }
        operation?.cancel()
        withExtendedLifetime(action) {}
    }
}
