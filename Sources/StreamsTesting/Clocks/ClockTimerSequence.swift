/// The ticks of a clock at a regular interval, as an asynchronous sequence: each element is the
/// clock's `now` when a tick wakes.
///
/// Made with a clock's `timer(interval:tolerance:)`. Ticks fall on the instants the first tick
/// counts from (the clock's `now` when iteration asks for it) plus whole intervals; a tick whose
/// instant has already passed when it is asked for is skipped, so a slow consumer gets the next tick
/// on the grid, never a burst. The sequence ends when the iterating task is cancelled.
public struct ClockTimerSequence<C: Clock>: AsyncSequence, Sendable {
    /// Each tick's element: the clock's instant when the tick woke.
    public typealias Element = C.Instant

    /// The ticks of one iteration.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private var clock: C?
        private let interval: C.Duration
        private let tolerance: C.Duration?
        private var lastDeadline: C.Instant?

        fileprivate init(clock: C, interval: C.Duration, tolerance: C.Duration?) {
            self.clock = clock
            self.interval = interval
            self.tolerance = tolerance
        }

        /// Sleeps until the next tick and returns the clock's instant then; `nil` once the task is
        /// cancelled.
        public mutating func next() async -> C.Instant? {
            guard let clock else { return nil }
            let now = clock.now
            let previous = lastDeadline ?? now
            var deadline = previous.advanced(by: interval)
            if deadline < now {
                let missed = (deadline.duration(to: now) / interval).rounded(.up)
                deadline = previous.advanced(by: interval * (Int(missed) + 1))
            }
            do {
                try await clock.sleep(until: deadline, tolerance: tolerance)
            } catch {
                self.clock = nil
                return nil
            }
            lastDeadline = deadline
            return clock.now
        }
    }

    private let clock: C
    private let interval: C.Duration
    private let tolerance: C.Duration?

    fileprivate init(clock: C, interval: C.Duration, tolerance: C.Duration?) {
        self.clock = clock
        self.interval = interval
        self.tolerance = tolerance
    }

    /// Starts an iteration: its first tick is one interval after the clock's `now` at the first
    /// `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(clock: clock, interval: interval, tolerance: tolerance)
    }
}

extension Clock where Duration: Hashable {
    /// Ticks of this clock every `interval`, as an asynchronous sequence of the clock's instants.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let ticks = Task {
    ///     var count = 0
    ///     for await _ in clock.timer(interval: .seconds(1)).prefix(3) { count += 1 }
    ///     return count
    /// }
    /// await clock.run()
    /// #expect(await ticks.value == 3)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time between ticks.
    ///   - tolerance: Passed to each sleep; a test clock ignores it.
    /// - Returns: The ticks, which end when the iterating task is cancelled.
    public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimerSequence<Self> {
        ClockTimerSequence(clock: self, interval: interval, tolerance: tolerance)
    }
}
