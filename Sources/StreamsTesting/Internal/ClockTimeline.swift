import Foundation
import Streams

/// A virtual time line as a clock sees it: instants counted as durations elapsed from the clock's
/// origin.
///
/// A ``TestClock`` or ``ImmediateClock`` made on its own keeps a ``VirtualTimeline`` of durations
/// (the time line itself); one that is the view of a test scheduler reads and schedules on the
/// scheduler's time line through ``SchedulerClockTimeline``, so that advancing either moves both.
protocol ClockTimeline<Duration>: Sendable {
    associatedtype Duration: DurationProtocol

    /// The duration from the clock's origin to the current instant.
    var elapsed: Duration { get }

    /// Moves the current instant to `elapsed` from the origin, if that is later.
    func moveForward(toElapsed elapsed: Duration)

    /// Puts `action` on the time line at `elapsed` from the origin; returns its ticket.
    func schedule(atElapsed elapsed: Duration, _ action: @escaping () -> Void) -> Int

    /// Takes the work with this ticket off the time line, if it has not run yet.
    func cancel(_ ticket: Int)

    /// Notes that a task sleeping on the time line was resumed and has yet to run again: advancing
    /// waits for it (see ``VirtualTimeline/settle()``).
    func beginResumption()

    /// Notes that a task counted by ``beginResumption()`` runs again.
    func endResumption()

    /// Lets other tasks run, as advancing does before each piece of work.
    nonisolated(nonsending) func settle() async

    /// Runs the work due by `elapsed` from the origin, letting other tasks run before each piece of
    /// work, and moves the current instant there. Misuse the work finds is reported at `caller`.
    nonisolated(nonsending) func advance(toElapsed elapsed: Duration, at caller: CallSite) async

    /// Lets other tasks run, then runs the earliest waiting work; `false` when there was none. Misuse
    /// the work finds is reported at `caller`.
    nonisolated(nonsending) func runNext(at caller: CallSite) async -> Bool
}

extension VirtualTimeline: ClockTimeline where Instant: DurationProtocol {
    typealias Duration = Instant

    var elapsed: Instant {
        now
    }

    func moveForward(toElapsed elapsed: Instant) {
        moveForward(to: elapsed)
    }

    func schedule(atElapsed elapsed: Instant, _ action: @escaping () -> Void) -> Int {
        schedule(at: elapsed, action)
    }

    nonisolated(nonsending) func advance(toElapsed elapsed: Instant, at caller: CallSite) async {
        await advance(to: elapsed, at: caller)
    }
}

/// A test scheduler's time line seen by its clock: the clock's origin is the scheduler's
/// `startTime`, and durations convert to and from the scheduler's strides.
struct SchedulerClockTimeline<Time: Strideable & Sendable>: ClockTimeline
where Time.Stride: DurationConvertibleStride {
    /// The scheduler's time line.
    let timeline: VirtualTimeline<Time>
    /// The scheduler's first instant: the clock's origin.
    let origin: Time

    var elapsed: Duration {
        origin.distance(to: timeline.now).duration
    }

    func moveForward(toElapsed elapsed: Duration) {
        timeline.moveForward(to: instant(atElapsed: elapsed))
    }

    func schedule(atElapsed elapsed: Duration, _ action: @escaping () -> Void) -> Int {
        timeline.schedule(at: instant(atElapsed: elapsed), action)
    }

    func cancel(_ ticket: Int) {
        timeline.cancel(ticket)
    }

    func beginResumption() {
        timeline.beginResumption()
    }

    func endResumption() {
        timeline.endResumption()
    }

    nonisolated(nonsending) func settle() async {
        await timeline.settle()
    }

    nonisolated(nonsending) func advance(toElapsed elapsed: Duration, at caller: CallSite) async {
        await timeline.advance(to: instant(atElapsed: elapsed), at: caller)
    }

    nonisolated(nonsending) func runNext(at caller: CallSite) async -> Bool {
        await timeline.runNext(at: caller)
    }

    private func instant(atElapsed elapsed: Duration) -> Time {
        origin.advanced(by: Time.Stride(elapsed))
    }
}

/// A scheduler stride that converts to and from `Duration`, to the nanosecond.
protocol DurationConvertibleStride {
    /// The stride closest to `duration`.
    init(_ duration: Duration)

    /// The stride as a duration.
    var duration: Duration { get }
}

extension Duration {
    /// The whole number of nanoseconds in this duration, rounded toward zero and kept within `Int`.
    var clampedNanoseconds: Int {
        let (seconds, attoseconds) = components
        let (whole, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        if overflowed { return seconds < 0 ? .min : .max }
        return sum
    }

    /// This duration in seconds, as a floating-point number.
    var secondsAsDouble: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A number of seconds rounded to the nanosecond.
    init(roundingSeconds seconds: Double) {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.isFinite else {
            self = seconds < 0 ? .nanoseconds(Int.min) : .nanoseconds(Int.max)
            return
        }
        self = .nanoseconds(Int64(clamping: Int(exactly: nanoseconds) ?? (nanoseconds < 0 ? .min : .max)))
    }
}

extension DispatchQueue.SchedulerTimeType.Stride: DurationConvertibleStride {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.clampedNanoseconds)
    }

    var duration: Duration {
        .nanoseconds(magnitude)
    }
}

extension RunLoop.SchedulerTimeType.Stride: DurationConvertibleStride {
    init(_ duration: Duration) {
        self = .seconds(Double(duration.clampedNanoseconds) / 1e9)
    }

    var duration: Duration {
        Duration(roundingSeconds: magnitude)
    }
}

extension OperationQueue.SchedulerTimeType.Stride: DurationConvertibleStride {
    init(_ duration: Duration) {
        self = .seconds(Double(duration.clampedNanoseconds) / 1e9)
    }

    var duration: Duration {
        Duration(roundingSeconds: magnitude)
    }
}
