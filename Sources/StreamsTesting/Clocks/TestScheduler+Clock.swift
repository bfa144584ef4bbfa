public import Dispatch
public import Foundation
public import Streams

extension TestScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    /// A test clock that reads and moves this scheduler's virtual time, for code that waits with
    /// `async`/`await` next to publishers that schedule here.
    ///
    /// The clock's origin is the scheduler's ``startTime``, so its ``TestClock/now`` is the
    /// scheduler's ``elapsed`` time. One time line holds the scheduler's actions and the clock's
    /// sleeps: ``advance(by:)-90fed`` on the scheduler or ``TestClock/advance(by:)`` on the clock runs
    /// both, in order of their instants. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let clock = scheduler.clock
    /// let slept = Task { try await clock.sleep(for: .seconds(2)) }
    /// await scheduler.advance(by: .seconds(2))  // wakes the sleep too
    /// try await slept.value
    /// #expect(clock.now.offset == .seconds(2))
    /// ```
    public var clock: TestClock<Swift.Duration> {
        clockView.clock { TestClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}

extension TestScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType {
    /// A test clock that reads and moves this scheduler's virtual time, for code that waits with
    /// `async`/`await` next to publishers that schedule here.
    ///
    /// The clock's origin is the scheduler's ``startTime``; strides and durations convert to the
    /// nanosecond. One time line holds the scheduler's actions and the clock's sleeps: advancing
    /// either runs both, in order of their instants. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = RunLoop.test
    /// scheduler.advance(by: .seconds(1.5))
    /// #expect(scheduler.clock.now.offset == .milliseconds(1500))
    /// ```
    public var clock: TestClock<Swift.Duration> {
        clockView.clock { TestClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}

extension TestScheduler where SchedulerTimeType == OperationQueue.SchedulerTimeType {
    /// A test clock that reads and moves this scheduler's virtual time, for code that waits with
    /// `async`/`await` next to publishers that schedule here.
    ///
    /// The clock's origin is the scheduler's ``startTime``; strides and durations convert to the
    /// nanosecond. One time line holds the scheduler's actions and the clock's sleeps: advancing
    /// either runs both, in order of their instants. Every use returns the same clock.
    ///
    /// ```swift
    /// let scheduler = OperationQueue.test
    /// scheduler.advance(by: .milliseconds(250))
    /// #expect(scheduler.clock.now.offset == .milliseconds(250))
    /// ```
    public var clock: TestClock<Swift.Duration> {
        clockView.clock { TestClock(timeline: SchedulerClockTimeline(timeline: timeline, origin: startTime)) }
    }
}
