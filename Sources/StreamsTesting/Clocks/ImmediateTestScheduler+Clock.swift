public import Dispatch
public import Foundation
public import Streams

extension ImmediateTestScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    /// An immediate clock on this scheduler's time: its sleeps end at once and move the scheduler's
    /// ``now`` to their deadlines, and its ``ImmediateClock/now`` is the time elapsed since the
    /// scheduler was created. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.immediate
    /// let start = scheduler.now
    /// try await scheduler.clock.sleep(for: .seconds(3))
    /// #expect(start.distance(to: scheduler.now) == .seconds(3))
    /// ```
    public var clock: ImmediateClock<Swift.Duration> {
        clockView.clock { ImmediateClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}

extension ImmediateTestScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType {
    /// An immediate clock on this scheduler's time: its sleeps end at once and move the scheduler's
    /// ``now`` to their deadlines. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = RunLoop.immediate
    /// try await scheduler.clock.sleep(for: .milliseconds(500))
    /// #expect(scheduler.clock.now.offset == .milliseconds(500))
    /// ```
    public var clock: ImmediateClock<Swift.Duration> {
        clockView.clock { ImmediateClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}

extension ImmediateTestScheduler where SchedulerTimeType == OperationQueue.SchedulerTimeType {
    /// An immediate clock on this scheduler's time: its sleeps end at once and move the scheduler's
    /// ``now`` to their deadlines. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = OperationQueue.immediate
    /// try await scheduler.clock.sleep(for: .seconds(1))
    /// #expect(scheduler.clock.now.offset == .seconds(1))
    /// ```
    public var clock: ImmediateClock<Swift.Duration> {
        clockView.clock { ImmediateClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}
