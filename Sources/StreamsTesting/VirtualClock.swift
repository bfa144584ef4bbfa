import Streams

/// What recorders and scripted publishers need from a ``TestScheduler``, without its options type:
/// the elapsed virtual time, and a way to run work at an elapsed time.
///
/// It holds the scheduler strongly; the work it schedules must capture its owners weakly, so that
/// nothing the scheduler holds keeps the scheduler alive.
struct VirtualClock<Time: Strideable>: @unchecked Sendable where Time.Stride: SchedulerTimeIntervalConvertible {
    // @unchecked: both closures only call the TestScheduler, which guards its state with its lock.
    private let readElapsed: () -> Time.Stride
    private let scheduleAtElapsed: (Time.Stride, @escaping () -> Void) -> Void

    init<Options>(_ scheduler: TestScheduler<Time, Options>) {
        readElapsed = { scheduler.elapsed }
        scheduleAtElapsed = { offset, action in
            scheduler.schedule(after: scheduler.startTime.advanced(by: offset), action)
        }
    }

    /// How much virtual time has passed since the scheduler started.
    var elapsed: Time.Stride {
        readElapsed()
    }

    /// Runs `action` when the elapsed virtual time reaches `offset` (on the next advance if it
    /// already has).
    func schedule(atElapsed offset: Time.Stride, _ action: @escaping () -> Void) {
        scheduleAtElapsed(offset, action)
    }
}
