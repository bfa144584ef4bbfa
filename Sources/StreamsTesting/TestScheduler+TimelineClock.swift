public import Dispatch
public import Streams

extension TestScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    /// A clock for a ``Streams/TimelineRecorder`` that reads this scheduler's virtual time: the time
    /// the scheduler has advanced since the clock was made. A pipeline run on the scheduler then
    /// records the same timeline on every run.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let recorder = TimelineRecorder(clock: scheduler.timelineClock)
    /// ```
    public var timelineClock: TimelineClock {
        let start = now
        return TimelineClock { [self] in .nanoseconds(start.distance(to: now).magnitude) }
    }
}
