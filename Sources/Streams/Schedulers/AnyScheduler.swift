public import Dispatch
public import Foundation

/// A type-erasing scheduler: it forwards every requirement of ``Scheduler`` to a wrapped scheduler,
/// or to closures, while naming only the time and options types.
///
/// Erasing a scheduler lets a type take "some scheduler that keeps `DispatchQueue` time" without
/// a generic parameter, so that production code can pass a real queue and tests another scheduler
/// with the same time type:
///
/// ```swift
/// final class SearchModel {
///     let scheduler: AnySchedulerOf<DispatchQueue>
///     var results: [String] = []
///     private var cancellables = Set<AnyCancellable>()
///
///     init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
///         self.scheduler = scheduler
///     }
///
///     func show(_ newResults: [String]) {
///         scheduler.schedule { self.results = newResults }
///     }
/// }
///
/// let model = SearchModel(scheduler: DispatchQueue(label: "search").eraseToAnyScheduler())
/// ```
///
/// Use ``init(minimumTolerance:now:scheduleImmediately:delayed:interval:)`` to build a scheduler out
/// of closures, for example one that records what it is asked to do.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    @usableFromInline
    let minimumToleranceBody: () -> SchedulerTimeType.Stride

    @usableFromInline
    let nowBody: () -> SchedulerTimeType

    @usableFromInline
    let scheduleImmediatelyBody: (SchedulerOptions?, @escaping () -> Void) -> Void

    @usableFromInline
    let scheduleDelayedBody:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void

    @usableFromInline
    let scheduleRepeatingBody:
        (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void
        ) -> any Cancellable

    /// Creates a type-erasing scheduler to wrap the provided endpoints.
    ///
    /// ```swift
    /// var log: [String] = []
    /// let recording = AnySchedulerOf<DispatchQueue>(
    ///     minimumTolerance: { .zero },
    ///     now: { .init(.now()) },
    ///     scheduleImmediately: { _, action in log.append("now"); action() },
    ///     delayed: { _, _, _, action in log.append("later"); action() },
    ///     interval: { _, _, _, _, action in log.append("every"); action(); return AnyCancellable {} }
    /// )
    /// recording.schedule { print("ran") }
    /// // Prints "ran", and log is ["now"]
    /// ```
    ///
    /// - Parameters:
    ///   - minimumTolerance: A closure that returns the scheduler's minimum tolerance.
    ///   - now: A closure that returns the scheduler's current time.
    ///   - scheduleImmediately: A closure that schedules a unit of work to be run as soon as
    ///     possible.
    ///   - delayed: A closure that schedules a unit of work to be run after a delay.
    ///   - interval: A closure that schedules a unit of work to be performed on a repeating
    ///     interval.
    @inlinable
    public init(
        minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        now: @escaping () -> SchedulerTimeType,
        scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed:
            @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
        interval:
            @escaping (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
                @escaping () -> Void
            ) -> any Cancellable
    ) {
        minimumToleranceBody = minimumTolerance
        nowBody = now
        scheduleImmediatelyBody = scheduleImmediately
        scheduleDelayedBody = delayed
        scheduleRepeatingBody = interval
    }

    /// Creates a type-erasing scheduler to wrap the provided scheduler.
    ///
    /// ```swift
    /// let main = AnyScheduler(DispatchQueue.main)  // an AnySchedulerOf<DispatchQueue>
    /// ```
    ///
    /// - Parameter scheduler: A scheduler to wrap with a type-eraser.
    @inlinable
    public init<S: Scheduler<SchedulerTimeType>>(_ scheduler: S) where S.SchedulerOptions == SchedulerOptions {
        minimumToleranceBody = { scheduler.minimumTolerance }
        nowBody = { scheduler.now }
        scheduleImmediatelyBody = { options, action in scheduler.schedule(options: options, action) }
        scheduleDelayedBody = { date, tolerance, options, action in
            scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
        }
        scheduleRepeatingBody = { date, interval, tolerance, options, action in
            scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
    }

    /// The minimum tolerance allowed by the wrapped scheduler.
    @inlinable
    public var minimumTolerance: SchedulerTimeType.Stride {
        minimumToleranceBody()
    }

    /// The wrapped scheduler's definition of the current moment in time.
    @inlinable
    public var now: SchedulerTimeType {
        nowBody()
    }

    /// Performs the action at the next possible opportunity, through the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleImmediatelyBody(options, action)
    }

    /// Performs the action at some time after the specified date, through the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: How late after `date` the scheduler may perform the action.
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The closure to perform.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleDelayedBody(date, tolerance, options, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// taking into account tolerance if possible, through the wrapped scheduler.
    ///
    /// - Parameters:
    ///   - date: The time at which to perform the action the first time.
    ///   - interval: The time between two performances of the action.
    ///   - tolerance: How late the scheduler may perform each action.
    ///   - options: Options for the wrapped scheduler, or `nil`.
    ///   - action: The closure to perform, once per interval.
    /// - Returns: What the wrapped scheduler returned: cancelling it stops the repetition.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        scheduleRepeatingBody(date, interval, tolerance, options, action)
    }
}

/// A convenience type to specify an ``AnyScheduler`` by the scheduler it wraps rather than by the
/// time type and options type.
///
/// ```swift
/// let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.global().eraseToAnyScheduler()
/// ```
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler {
    /// Wraps this scheduler with a type eraser.
    ///
    /// ```swift
    /// let erased: AnySchedulerOf<RunLoop> = RunLoop.main.eraseToAnyScheduler()
    /// ```
    ///
    /// - Returns: An ``AnyScheduler`` that forwards to this scheduler.
    @inlinable
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension AnySchedulerOf<DispatchQueue> {
    /// A type-erased main dispatch queue.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<DispatchQueue> = .main
    /// ```
    @inlinable
    public static var main: Self {
        DispatchQueue.main.eraseToAnyScheduler()
    }

    /// A type-erased global dispatch queue with the specified quality-of-service class.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<DispatchQueue> = .global(qos: .utility)
    /// ```
    ///
    /// - Parameter qos: The quality of service of the global queue.
    /// - Returns: The erased global queue.
    @inlinable
    public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
        DispatchQueue.global(qos: qos).eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<OperationQueue> {
    /// A type-erased main operation queue.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<OperationQueue> = .main
    /// ```
    @inlinable
    public static var main: Self {
        OperationQueue.main.eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<RunLoop> {
    /// A type-erased main run loop.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<RunLoop> = .main
    /// ```
    @inlinable
    public static var main: Self {
        RunLoop.main.eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<UIScheduler> {
    /// The type-erased ``UIScheduler``.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<UIScheduler> = .shared
    /// ```
    @inlinable
    public static var shared: Self {
        UIScheduler.shared.eraseToAnyScheduler()
    }
}
