/// A protocol that defines when and how to execute a closure.
///
/// A scheduler runs work either as soon as it can or after a date, on whatever execution context it
/// stands for: a dispatch queue, a run loop, an operation queue, or the current thread for
/// ``ImmediateScheduler``. Each scheduler keeps time in its own ``SchedulerTimeType``; because that
/// type's `Stride` conforms to ``SchedulerTimeIntervalConvertible``, a delay can always be written
/// as `.seconds(1)` or `.milliseconds(500)`, whatever the scheduler.
///
/// ```swift
/// let queue = DispatchQueue(label: "work")
/// queue.schedule { print("as soon as possible") }
/// queue.schedule(after: queue.now.advanced(by: .milliseconds(100))) {
///     print("a tenth of a second later")
/// }
/// // Prints:
/// // as soon as possible
/// // a tenth of a second later
/// ```
///
/// Schedulers may take options, of their own ``SchedulerOptions`` type, that control how they run
/// the actions, such as the quality of service of a dispatch queue.
///
/// A scheduler calls each action it is given on its own execution context. The actions are plain
/// closures, not `@Sendable` ones, exactly as in Combine: handing one to a scheduler is handing it
/// to that context, which runs it once for each time it was asked to (a serial context never runs
/// two of them at the same time).
public protocol Scheduler<SchedulerTimeType> {
    /// Describes an instant in time for this scheduler.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// A type that defines options accepted by the scheduler.
    ///
    /// Each scheduler defines its own; operators that take a scheduler usually also take an optional
    /// value of this type and pass it on.
    associatedtype SchedulerOptions

    /// This scheduler's definition of the current moment in time.
    var now: SchedulerTimeType { get }

    /// The minimum tolerance allowed by the scheduler.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Performs the action at the next possible opportunity.
    ///
    /// ```swift
    /// DispatchQueue.main.schedule(options: .init(qos: .userInitiated)) {
    ///     print("on the main queue")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: Options that control how the scheduler performs the action, or `nil`.
    ///   - action: The closure to perform.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date.
    ///
    /// ```swift
    /// let queue = DispatchQueue.global()
    /// queue.schedule(after: queue.now.advanced(by: .seconds(1)), tolerance: .milliseconds(10), options: nil) {
    ///     print("a second later")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: How late after `date` the scheduler may perform the action, if it can use the
    ///     leeway; schedulers that cannot, ignore it.
    ///   - options: Options that control how the scheduler performs the action, or `nil`.
    ///   - action: The closure to perform.
    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    )

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// optionally taking into account tolerance if possible.
    ///
    /// The action runs first at `date`, then every `interval`, until the returned value is
    /// cancelled. Keep the returned value for as long as the action should repeat: if it is an
    /// ``AnyCancellable``, releasing it cancels the repetition.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "ticks")
    /// let ticking = queue.schedule(
    ///     after: queue.now, interval: .seconds(1), tolerance: .zero, options: nil
    /// ) {
    ///     print("tick")
    /// }
    /// // Prints "tick" once a second until:
    /// ticking.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: How late the scheduler may perform each action, if it can use the leeway.
    ///   - options: Options that control how the scheduler performs the action, or `nil`.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: A value that stops the repetition when cancelled.
    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Performs the action at some time after the specified date, using the scheduler's minimum
    /// tolerance.
    ///
    /// ```swift
    /// let queue = DispatchQueue.main
    /// queue.schedule(after: queue.now.advanced(by: .milliseconds(250))) {
    ///     print("a quarter of a second later")
    /// }
    /// ```
    ///
    /// ``ImmediateScheduler`` ignores `date` and performs the action at once.
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Performs the action at the next possible opportunity, without options.
    ///
    /// ```swift
    /// DispatchQueue.main.schedule { print("on the main queue") }
    /// ```
    ///
    /// - Parameter action: The closure to perform.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Performs the action at some time after the specified date, without options.
    ///
    /// ```swift
    /// let loop = RunLoop.main
    /// loop.schedule(after: loop.now.advanced(by: .seconds(2)), tolerance: .milliseconds(100)) {
    ///     print("about two seconds later")
    /// }
    /// ```
    ///
    /// ``ImmediateScheduler`` ignores `date` and performs the action at once.
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: How late after `date` the scheduler may perform the action.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency, taking
    /// into account tolerance if possible, without options.
    ///
    /// ```swift
    /// let queue = DispatchQueue.global()
    /// let ticking = queue.schedule(after: queue.now, interval: .seconds(1), tolerance: .milliseconds(5)) {
    ///     print("tick")
    /// }
    /// // ...
    /// ticking.cancel()
    /// ```
    ///
    /// ``ImmediateScheduler`` ignores `date` and `interval` and performs the action once, at once.
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: How late the scheduler may perform each action.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: A value that stops the repetition when cancelled.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency, using
    /// the scheduler's minimum tolerance, without options.
    ///
    /// ```swift
    /// let queue = DispatchQueue.main
    /// let ticking = queue.schedule(after: queue.now, interval: .milliseconds(500)) {
    ///     print("tick")
    /// }
    /// // ...
    /// ticking.cancel()
    /// ```
    ///
    /// ``ImmediateScheduler`` ignores `date` and `interval` and performs the action once, at once.
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: A value that stops the repetition when cancelled.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }
}

/// A protocol that provides a scheduler with an expression for relative time.
///
/// Every scheduler's `SchedulerTimeType.Stride` conforms, so code generic over a scheduler can write
/// durations the same way for all of them:
///
/// ```swift
/// func timeout<S: Scheduler>(on scheduler: S) -> S.SchedulerTimeType {
///     scheduler.now.advanced(by: .milliseconds(1500))
/// }
/// ```
public protocol SchedulerTimeIntervalConvertible {
    /// Converts the specified number of seconds into an instance of this scheduler time type.
    ///
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval, in this type's units.
    static func seconds(_ s: Int) -> Self

    /// Converts the specified number of seconds, as a floating-point value, into an instance of this
    /// scheduler time type.
    ///
    /// - Parameter s: A number of seconds, possibly fractional.
    /// - Returns: The interval, in this type's units.
    static func seconds(_ s: Double) -> Self

    /// Converts the specified number of milliseconds into an instance of this scheduler time type.
    ///
    /// - Parameter ms: A number of milliseconds.
    /// - Returns: The interval, in this type's units.
    static func milliseconds(_ ms: Int) -> Self

    /// Converts the specified number of microseconds into an instance of this scheduler time type.
    ///
    /// - Parameter us: A number of microseconds.
    /// - Returns: The interval, in this type's units.
    static func microseconds(_ us: Int) -> Self

    /// Converts the specified number of nanoseconds into an instance of this scheduler time type.
    ///
    /// - Parameter ns: A number of nanoseconds.
    /// - Returns: The interval, in this type's units.
    static func nanoseconds(_ ns: Int) -> Self
}
