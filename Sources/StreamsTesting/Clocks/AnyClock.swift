/// A clock that forwards to another clock of the same duration type, hiding that clock's type.
///
/// Store or pass clocks of different types where one type is needed — a property that holds a
/// `ContinuousClock` in production and a ``TestClock`` in tests, without making the owner generic:
///
/// ```swift
/// final class Poller {
///     let clock: AnyClock<Duration>
///     init(clock: some Clock<Duration>) { self.clock = AnyClock(clock) }
/// }
///
/// let poller = Poller(clock: TestClock())
/// #expect(poller.clock.now.offset == .zero)
/// ```
///
/// Its instants count from the wrapped clock's `now` at the moment of wrapping: ``now`` starts at
/// offset zero and moves as the wrapped clock's time does; a sleep until an instant sleeps on the
/// wrapped clock until the matching instant of its own.
public final class AnyClock<Duration: DurationProtocol & Hashable>: Clock {
    /// An instant of a type-erased clock: a duration from the wrapped clock's `now` when it was
    /// wrapped.
    public struct Instant: InstantProtocol {
        /// How far this instant is from the moment of wrapping.
        public let offset: Duration

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

    private let readNow: @Sendable () -> Instant
    private let readMinimumResolution: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Instant, Duration?) async throws -> Void

    /// Wraps `clock`.
    ///
    /// - Parameter clock: The clock to forward to.
    public init<C: Clock>(_ clock: C) where C.Instant.Duration == Duration {
        let origin = clock.now
        readNow = { Instant(offset: origin.duration(to: clock.now)) }
        readMinimumResolution = { clock.minimumResolution }
        sleepUntil = { deadline, tolerance in
            try await clock.sleep(until: origin.advanced(by: deadline.offset), tolerance: tolerance)
        }
    }

    /// The wrapped clock's current instant, as a duration from the moment of wrapping.
    public var now: Instant {
        readNow()
    }

    /// The wrapped clock's minimum resolution.
    public var minimumResolution: Duration {
        readMinimumResolution()
    }

    /// Sleeps on the wrapped clock until its instant matching `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Passed on to the wrapped clock.
    /// - Throws: What the wrapped clock's sleep throws, such as `CancellationError`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleepUntil(deadline, tolerance)
    }
}
