import Streams

/// A clock on which every sleep ends at once, with the clock's time moved to the sleep's deadline.
///
/// Hand it to code whose waiting a test is not about: a debounce before saving, a delay before a
/// retry, a splash screen's pause. The code runs straight through, and ``now`` still tells how much
/// time it would have waited:
///
/// ```swift
/// func retrying<T>(
///     clock: some Clock<Duration>, attempts: Int, _ operation: () async throws -> T
/// ) async throws -> T {
///     for _ in 1..<attempts {
///         if let value = try? await operation() { return value }
///         try await clock.sleep(for: .seconds(2))
///     }
///     return try await operation()
/// }
///
/// @Test func waitsTwoSecondsBetweenAttempts() async throws {
///     let clock = ImmediateClock()
///     var calls = 0
///     let value = try await retrying(clock: clock, attempts: 3) {
///         calls += 1
///         if calls < 3 { throw CancellationError() }
///         return "done"
///     }
///     #expect(value == "done")
///     #expect(clock.now.offset == .seconds(4))
/// }
/// ```
///
/// A sleep checks for cancellation first (a cancelled task's sleep throws `CancellationError`),
/// moves ``now`` forward to its deadline (never back), then lets other tasks run before returning.
/// The names and behaviour are those of the `ImmediateClock` of Point-Free's swift-clocks.
///
/// An immediate test scheduler's `clock` is an immediate clock on the
/// scheduler's own time: a sleep moves the scheduler's ``ImmediateTestScheduler/now`` as well.
public final class ImmediateClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
    /// An instant of an immediate clock: a duration from the clock's origin.
    public struct Instant: InstantProtocol {
        /// How far this instant is from the clock's origin.
        public let offset: Duration

        /// The instant `offset` from the clock's origin.
        ///
        /// - Parameter offset: The duration from the origin; zero is the origin itself.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later than this one (earlier, for a negative duration).
        ///
        /// - Parameter duration: How far to move.
        /// - Returns: The moved instant.
        public func advanced(by duration: Duration) -> Self {
            Self(offset: offset + duration)
        }

        /// The duration from this instant to `other`, negative when `other` is earlier.
        ///
        /// - Parameter other: The instant to measure to.
        /// - Returns: The duration between the two.
        public func duration(to other: Self) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let timeline: any ClockTimeline<Duration>

    /// Creates an immediate clock with a time of its own, starting at `now`.
    ///
    /// ```swift
    /// let clock = ImmediateClock<Duration>(now: .init(offset: .seconds(10)))
    /// try await clock.sleep(for: .seconds(5))
    /// #expect(clock.now.offset == .seconds(15))
    /// ```
    ///
    /// - Parameter now: The clock's first instant; the origin by default.
    public init(now: Instant = .init()) {
        timeline = VirtualTimeline(now: now.offset)
    }

    /// A clock on another time line (an immediate test scheduler's).
    init(timeline: any ClockTimeline<Duration>) {
        self.timeline = timeline
    }

    /// The current instant: the first one, or the latest deadline slept until so far.
    public var now: Instant {
        Instant(offset: timeline.elapsed)
    }

    /// Zero.
    public var minimumResolution: Duration {
        .zero
    }

    /// Moves ``now`` forward to `deadline` if it is later, lets other tasks run, and returns.
    ///
    /// - Parameters:
    ///   - deadline: The instant the sleep was meant to end at.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` if the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        timeline.moveForward(toElapsed: deadline.offset)
        await VirtualTimeline<Int>.letOtherTasksRun()
    }
}

extension ImmediateClock where Duration == Swift.Duration {
    /// Creates an immediate clock with a time of its own, starting at its origin.
    ///
    /// ```swift
    /// let clock = ImmediateClock()
    /// try await clock.sleep(for: .seconds(1))
    /// #expect(clock.now.offset == .seconds(1))
    /// ```
    public convenience init() {
        self.init(now: .init())
    }
}

extension Clock where Self == ImmediateClock<Swift.Duration> {
    /// A new immediate clock, where a `Clock` is expected.
    ///
    /// ```swift
    /// let value = try await retrying(clock: .immediate, attempts: 3) { "done" }
    /// ```
    public static var immediate: Self {
        ImmediateClock()
    }
}
