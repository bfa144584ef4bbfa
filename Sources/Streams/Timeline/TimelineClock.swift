/// Where a ``TimelineRecorder`` reads the time of each event: the time since it started.
///
/// The default, ``continuous``, measures real time. A test that runs its pipeline on a virtual-time
/// scheduler passes a clock that reads the scheduler instead (StreamsTesting's
/// `TestScheduler.timelineClock`), so the same test records the same timeline on every run.
public struct TimelineClock: Sendable {
    /// Reads the time since the clock's start.
    let now: @Sendable () -> Duration

    /// Creates a clock that reads the time since its start from `now`.
    ///
    /// - Parameter now: Returns the time since the clock's start; called once per event, from the
    ///   thread the event happens on, so it must be safe to call from any thread.
    public init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    /// Real time since the clock was made, read from `ContinuousClock`.
    public static var continuous: TimelineClock {
        let start = ContinuousClock.now
        return TimelineClock { ContinuousClock.now - start }
    }
}
