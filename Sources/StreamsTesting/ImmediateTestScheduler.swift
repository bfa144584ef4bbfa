public import Dispatch
public import Foundation
public import Streams

/// A scheduler that performs every action at once, with the time type of another scheduler, so it
/// can stand in for that scheduler in tests.
///
/// Streams' own ``Streams/ImmediateScheduler`` has a time type of its own, so it cannot be passed
/// where code expects, say, an `AnySchedulerOf<DispatchQueue>`. An immediate test scheduler keeps
/// the time of the scheduler it replaces: `DispatchQueue.immediate` is an
/// `ImmediateSchedulerOf<DispatchQueue>`, and `AnySchedulerOf<DispatchQueue>.immediate` its erased
/// form.
///
/// It collapses time to a point: an action scheduled for later runs at once all the same, before
/// `schedule` returns, and ``now`` jumps forward to that action's date first, so the action (and
/// whatever it schedules next) sees the time it expected. A repeating action runs once, at once.
///
/// For example, a model loads episodes and shows them on the scheduler it is given, the main queue
/// in production:
///
/// ```swift
/// final class EpisodesModel {
///     private(set) var titles: [String] = []
///     private let scheduler: AnySchedulerOf<DispatchQueue>
///     private var cancellables = Set<AnyCancellable>()
///
///     init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
///         self.scheduler = scheduler
///     }
///
///     func refresh<P: Publisher<[String], Never>>(from fetch: P) {
///         fetch
///             .receive(on: scheduler)
///             .sink { [weak self] in self?.titles = $0 }
///             .store(in: &cancellables)
///     }
/// }
/// ```
///
/// On the main queue, a test would have to wait for the hop back to the main thread. With the
/// immediate scheduler there is no hop and nothing to wait for:
///
/// ```swift
/// @Test func refreshShowsTheFetchedTitles() {
///     let model = EpisodesModel(scheduler: .immediate)
///     model.refresh(from: Just(["Pilot", "Finale"]))
///     #expect(model.titles == ["Pilot", "Finale"])
/// }
/// ```
///
/// Delayed work runs at once too, with the clock moved to its date:
///
/// ```swift
/// let scheduler = DispatchQueue.immediate
/// let start = scheduler.now
/// var log: [String] = []
/// scheduler.schedule(after: start.advanced(by: .seconds(5))) {
///     log.append("after \(start.distance(to: scheduler.now) == .seconds(5) ? "5s" : "?")")
///     scheduler.schedule { log.append("nested") }
///     log.append("end of action")
/// }
/// log.append("returned")
/// #expect(log == ["after 5s", "nested", "end of action", "returned"])
/// ```
///
/// Work scheduled from inside an action runs inside it, depth first, as the example shows. Use
/// ``TestScheduler`` instead when the order or the timing of work matters — debouncing,
/// throttling, timeouts, timers — since those need time to pass in steps, and an action that keeps
/// scheduling itself for later would run forever here.
public final class ImmediateTestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler,
    // @unchecked: mutable state lives in `timeline` and `clockView`, which lock it; actions run unlocked.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {

    /// Where the current instant is kept (nothing waits on it: every action runs at once).
    let timeline: VirtualTimeline<SchedulerTimeType>

    /// The instant the scheduler was created with: the origin of its clock view.
    let startTime: SchedulerTimeType

    /// The clock view of this scheduler's time, created on first use (see `clock`).
    let clockView = ClockViewSlot()

    /// Creates an immediate scheduler whose clock starts at `now`.
    ///
    /// ```swift
    /// let scheduler = ImmediateTestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
    ///     now: .init(.now())
    /// )
    /// ```
    ///
    /// - Parameter now: The starting instant.
    public init(now: SchedulerTimeType) {
        timeline = VirtualTimeline(now: now)
        startTime = now
    }

    /// The current instant: the starting one, or the latest date of an action performed so far.
    public var now: SchedulerTimeType {
        timeline.now
    }

    /// Zero: every action runs at once.
    public var minimumTolerance: SchedulerTimeType.Stride {
        .zero
    }

    /// Performs the action at once, before returning.
    ///
    /// - Parameters:
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Moves ``now`` forward to `date` if it is later, then performs the action at once, before
    /// returning.
    ///
    /// - Parameters:
    ///   - date: The date the action was meant for.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        timeline.moveForward(to: date)
        action()
    }

    /// Moves ``now`` forward to `date` if it is later, then performs the action once, at once, before
    /// returning; it does not repeat.
    ///
    /// - Parameters:
    ///   - date: The date of the first performance.
    ///   - interval: Ignored: there is no second performance.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    /// - Returns: A cancellable whose cancellation does nothing, the action having already run.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        timeline.moveForward(to: date)
        action()
        return AnyCancellable {}
    }

}

/// An immediate test scheduler with the time and options types of scheduler `S`, such as
/// `ImmediateSchedulerOf<DispatchQueue>`.
public typealias ImmediateSchedulerOf<S: Scheduler> = ImmediateTestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension DispatchQueue {
    /// An immediate scheduler with dispatch time, to stand in for a dispatch queue in tests.
    ///
    /// Each access creates a new scheduler whose clock starts at one nanosecond of uptime.
    ///
    /// ```swift
    /// var ran = false
    /// DispatchQueue.immediate.schedule { ran = true }
    /// #expect(ran)
    /// ```
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
        ImmediateTestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// An immediate scheduler with run-loop time, to stand in for a run loop in tests.
    ///
    /// Each access creates a new scheduler whose clock starts at the reference date.
    ///
    /// ```swift
    /// var ran = false
    /// RunLoop.immediate.schedule { ran = true }
    /// #expect(ran)
    /// ```
    public static var immediate: ImmediateSchedulerOf<RunLoop> {
        ImmediateTestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
    }
}

extension OperationQueue {
    /// An immediate scheduler with operation-queue time, to stand in for an operation queue in tests.
    ///
    /// Each access creates a new scheduler whose clock starts at the reference date.
    ///
    /// ```swift
    /// var ran = false
    /// OperationQueue.immediate.schedule { ran = true }
    /// #expect(ran)
    /// ```
    public static var immediate: ImmediateSchedulerOf<OperationQueue> {
        ImmediateTestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
    }
}

extension AnySchedulerOf<DispatchQueue> {
    /// A type-erased immediate scheduler with dispatch time: `DispatchQueue.immediate`, erased.
    ///
    /// ```swift
    /// let model = EpisodesModel(scheduler: .immediate)  // init(scheduler: AnySchedulerOf<DispatchQueue>)
    /// ```
    public static var immediate: Self {
        DispatchQueue.immediate.eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<RunLoop> {
    /// A type-erased immediate scheduler with run-loop time: `RunLoop.immediate`, erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<RunLoop> = .immediate
    /// ```
    public static var immediate: Self {
        RunLoop.immediate.eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<OperationQueue> {
    /// A type-erased immediate scheduler with operation-queue time: `OperationQueue.immediate`,
    /// erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<OperationQueue> = .immediate
    /// ```
    public static var immediate: Self {
        OperationQueue.immediate.eraseToAnyScheduler()
    }
}

extension UIScheduler {
    /// An immediate scheduler with dispatch time, to stand in for the UI scheduler in tests.
    ///
    /// Each access creates a new scheduler whose clock starts at one nanosecond of uptime.
    ///
    /// ```swift
    /// var ran = false
    /// UIScheduler.immediate.schedule { ran = true }
    /// #expect(ran)
    /// ```
    public static var immediate: ImmediateSchedulerOf<UIScheduler> {
        ImmediateTestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}
