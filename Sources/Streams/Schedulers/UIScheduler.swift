public import Dispatch
import Foundation

/// A scheduler that performs its work on the main queue, at once when it is already there.
///
/// `DispatchQueue.main.schedule` always goes through `DispatchQueue.main.async`, so an action
/// scheduled from the main thread runs later, on a following turn of the main queue. `UIScheduler`
/// runs such an action immediately, before `schedule` returns; from any other thread it hops to
/// the main queue, as `DispatchQueue.main` does. Use it where work must reach the main thread as soon
/// as possible and a hop would be visible, such as state that drives an animation.
///
/// ```swift
/// // On the main thread:
/// var ran = false
/// UIScheduler.shared.schedule { ran = true }
/// print(ran)  // Prints "true"
/// ```
///
/// Actions scheduled for a date, or repeating, always go through the main queue, with
/// `DispatchQueue`'s time type. It has no options. In tests, inject `UIScheduler.test` (from
/// StreamsTesting) where production code takes a `UIScheduler`-timed scheduler.
public struct UIScheduler: Scheduler, Sendable {
    /// The time type of the main dispatch queue.
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType

    /// `UIScheduler` has no options.
    public typealias SchedulerOptions = Never

    /// The one UI scheduler.
    ///
    /// There is no initializer: use this instance.
    ///
    /// ```swift
    /// UIScheduler.shared.schedule { print("on the main thread") }
    /// ```
    public static let shared = UIScheduler()

    private init() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: mainQueueMark)
    }

    /// The main queue's current time.
    public var now: SchedulerTimeType {
        DispatchQueue.main.now
    }

    /// The main queue's minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        DispatchQueue.main.minimumTolerance
    }

    /// Performs the action now if the caller is on the main queue or the main thread; otherwise
    /// performs it asynchronously on the main queue.
    ///
    /// ```swift
    /// DispatchQueue.global().async {
    ///     UIScheduler.shared.schedule { print(Thread.isMainThread) }  // Prints "true", later.
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: Always `nil`: `UIScheduler` has no options.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions? = nil, _ action: @escaping () -> Void) {
        if DispatchQueue.getSpecific(key: mainQueueKey) == mainQueueMark || Thread.isMainThread {
            action()
        } else {
            DispatchQueue.main.schedule(options: nil, action)
        }
    }

    /// Performs the action on the main queue, no earlier than `date`.
    ///
    /// ```swift
    /// let ui = UIScheduler.shared
    /// ui.schedule(after: ui.now.advanced(by: .milliseconds(300))) { print("later, on main") }
    /// ```
    ///
    /// - Parameters:
    ///   - date: The earliest time at which to perform the action.
    ///   - tolerance: The allowed timing variance.
    ///   - options: Always `nil`.
    ///   - action: The closure to perform.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions? = nil,
        _ action: @escaping () -> Void
    ) {
        DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action on the main queue at `date`, then every `interval`, until cancelled.
    ///
    /// ```swift
    /// let ui = UIScheduler.shared
    /// let ticking = ui.schedule(after: ui.now, interval: .seconds(1)) { print("tick") }
    /// // Later:
    /// ticking.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - date: The time of the first performance.
    ///   - interval: The time between two performances.
    ///   - tolerance: The allowed timing variance.
    ///   - options: Always `nil`.
    ///   - action: The closure to perform.
    /// - Returns: A cancellable that stops the repetition.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions? = nil,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        DispatchQueue.main.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}

/// Marks the main queue, so that ``UIScheduler`` can tell it is running on it.
private let mainQueueKey = DispatchSpecificKey<UInt8>()

/// The value ``UIScheduler`` stores under `mainQueueKey` on the main queue.
private let mainQueueMark: UInt8 = 1
