import Streams

/// A clock whose time moves only when a test tells it to: the `Clock` counterpart of
/// ``TestScheduler``, for code that waits with `async`/`await`.
///
/// Give code a `some Clock<Duration>` or `any Clock<Duration>` parameter; production passes a
/// `ContinuousClock`, a test passes a test clock and moves its time with ``advance(by:)``. A task
/// sleeping on the clock wakes when the clock reaches its deadline, and not before, however long the
/// test takes in real time:
///
/// ```swift
/// @MainActor
/// final class CountdownModel {
///     private(set) var remaining: Int
///     private let clock: any Clock<Duration>
///
///     init(from start: Int, clock: any Clock<Duration>) {
///         remaining = start
///         self.clock = clock
///     }
///
///     func start() async throws {
///         while remaining > 0 {
///             try await clock.sleep(for: .seconds(1))
///             remaining -= 1
///         }
///     }
/// }
///
/// @Test @MainActor func countsDownOncePerSecond() async throws {
///     let clock = TestClock()
///     let model = CountdownModel(from: 3, clock: clock)
///     let countdown = Task { try await model.start() }
///     await clock.advance(by: .seconds(1))
///     #expect(model.remaining == 2)
///     await clock.advance(by: .seconds(2))
///     #expect(model.remaining == 0)
///     try await countdown.value
/// }
/// ```
///
/// The names and behaviour are those of the `TestClock` of Point-Free's swift-clocks, so tests
/// written for it compile against StreamsTesting with only their imports changed:
/// - A sleep until an instant before ``now`` returns at once; a sleep until ``now`` or later waits for
///   an advance that reaches its deadline (even `advance(by: .zero)` wakes a sleep until ``now``).
/// - ``advance(by:)`` and ``advance(to:)`` wake the sleeps due by their target in order of
///   deadline, first come first served among equal deadlines, moving ``now`` to each deadline in
///   turn, and let other tasks run before each wake-up and after the last, so that a woken task
///   runs up to its next sleep, which the same call wakes too if it falls due by the target.
/// - ``run(timeout:fileID:filePath:line:column:)`` advances until nothing waits, and fails the test
///   if that takes longer than a real-time timeout (a sleep that keeps coming back).
/// - A cancelled sleep throws `CancellationError` at once and leaves the clock.
/// - ``checkSuspension()`` throws ``SuspensionError`` while any sleep is waiting.
///
/// ## One virtual time with a test scheduler
///
/// Code that uses both a scheduler (for its publishers) and a clock (for its `async` work) is tested
/// with one time for both: a test scheduler's `clock` is a test clock that reads and
/// moves the scheduler's own virtual time. Advancing either advances both, and scheduled actions and
/// sleeps run in the order of their instants. A clock made with ``init(now:)`` has a time of its own.
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock,
    // @unchecked: `resolution`, `sleeps` and `nextSleep` are guarded by `lock`; the time line guards its own.
    @unchecked Sendable
{

    /// An instant of a test clock: a duration from the clock's origin.
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

    /// What is known of one sleep: where it waits on the time line, the continuation of its task once
    /// the task has suspended, and its outcome if it ended before the task suspended.
    private struct Sleep {
        var ticket: Int?
        var continuation: CheckedContinuation<Bool, any Error>?
        var outcome: Result<Void, any Error>?
    }

    private let timeline: any ClockTimeline<Duration>
    private let lock = Lock()
    private var resolution: Duration = .zero
    private var sleeps: [Int: Sleep] = [:]
    private var nextSleep = 0

    /// Creates a test clock with a virtual time of its own, starting at `now`.
    ///
    /// ```swift
    /// let clock = TestClock<Duration>(now: .init(offset: .seconds(60)))
    /// #expect(clock.now.offset == .seconds(60))
    /// ```
    ///
    /// - Parameter now: The clock's first instant; the origin by default.
    public init(now: Instant = .init()) {
        timeline = VirtualTimeline(now: now.offset)
    }

    /// A clock on another virtual time line (a test scheduler's).
    init(timeline: any ClockTimeline<Duration>) {
        self.timeline = timeline
    }

    /// The current instant of virtual time.
    public var now: Instant {
        Instant(offset: timeline.elapsed)
    }

    /// The resolution the clock claims to have; zero unless a test sets it.
    public var minimumResolution: Duration {
        get { lock.withLock { resolution } }
        set { lock.withLock { resolution = newValue } }
    }

    /// How many sleeps are waiting on the clock.
    public var sleepCount: Int {
        lock.withLock { sleeps.values.count { $0.outcome == nil } }
    }

    /// Suspends the calling task until virtual time reaches `deadline`.
    ///
    /// A deadline before ``now`` returns at once; any other waits for ``advance(by:)``,
    /// ``advance(to:)`` or ``run(timeout:fileID:filePath:line:column:)`` to reach it (or, for a view of
    /// a test scheduler, for the scheduler to be advanced).
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: a test clock wakes exactly at the deadline.
    /// - Throws: `CancellationError` if the task is cancelled before or while it sleeps.
    nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline >= now else { return }
        let id = lock.withLock {
            defer { nextSleep += 1 }
            sleeps[nextSleep] = Sleep()
            return nextSleep
        }
        let ticket = timeline.schedule(atElapsed: deadline.offset) { [weak self] in
            self?.endSleep(id, with: .success(()))
        }
        let ended = lock.withLock {
            guard sleeps[id]?.outcome == nil else { return true }
            sleeps[id]?.ticket = ticket
            return false
        }
        if ended { timeline.cancel(ticket) }
        // Resumed with `true` when the time line counts this task as resumed and not yet running.
        let counted = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    guard let outcome = sleeps[id]?.outcome else {
                        sleeps[id]?.continuation = continuation
                        return nil
                    }
                    sleeps[id] = nil
                    return outcome
                }
                if let outcome { continuation.resume(with: outcome.map { false }) }
            }
        } onCancel: {
            endSleep(id, with: .failure(CancellationError()))
        }
        if counted { timeline.endResumption() }
    }

    /// Throws ``SuspensionError`` if a sleep is waiting on the clock, after letting other tasks run.
    ///
    /// It proves that, as far as this clock goes, the code under test has nothing left to do:
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let task = Task { try await clock.sleep(for: .seconds(1)) }
    /// await #expect(throws: SuspensionError.self) { try await clock.checkSuspension() }
    /// await clock.advance(by: .seconds(1))
    /// try await clock.checkSuspension()
    /// try await task.value
    /// ```
    ///
    /// For the clock of a test scheduler, only sleeps count; the scheduler's ``TestScheduler/scheduledCount``
    /// tells about its actions.
    public func checkSuspension() async throws {
        await timeline.settle()
        if sleepCount > 0 { throw SuspensionError() }
    }

    /// Moves virtual time forward by `duration`, waking every sleep due on the way.
    ///
    /// Before each wake-up and after the last, other tasks get the chance to run, so that the woken
    /// tasks reach their next sleep, which this call also wakes if it is due by then. For the clock of
    /// a test scheduler, the scheduler's actions due on the way run too, in order of their instants.
    ///
    /// For the clock of a test scheduler, misuse found by the scheduler's actions it runs (an action
    /// repeating forever at one instant) fails the running test at the line that calls this.
    ///
    /// - Parameters:
    ///   - duration: How far to move; `.zero` wakes only what is already due.
    ///   - fileID: The file misuse found by the actions it runs is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse found by the actions it runs is reported at; leave the default.
    ///   - column: The column misuse found by the actions it runs is reported at; leave the default.
    nonisolated(nonsending) public func advance(
        by duration: Duration = .zero,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await advance(
            to: now.advanced(by: duration), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The form of ``advance(by:fileID:filePath:line:column:)`` without a source location, kept for
    /// compatibility: misuse found by the actions it runs is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameter duration: How far to move; `.zero` wakes only what is already due.
    @_disfavoredOverload
    nonisolated(nonsending) public func advance(by duration: Duration = .zero) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves virtual time forward to `deadline`, waking every sleep due on the way.
    ///
    /// An instant already passed wakes only what is due and leaves ``now`` where it is. See
    /// ``advance(by:fileID:filePath:line:column:)`` for how other tasks get to run.
    ///
    /// - Parameters:
    ///   - deadline: The instant to move to.
    ///   - fileID: The file misuse found by the actions it runs is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse found by the actions it runs is reported at; leave the default.
    ///   - column: The column misuse found by the actions it runs is reported at; leave the default.
    nonisolated(nonsending) public func advance(
        to deadline: Instant,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await timeline.advance(
            toElapsed: deadline.offset, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// The form of ``advance(to:fileID:filePath:line:column:)`` without a source location, kept for
    /// compatibility: misuse found by the actions it runs is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameter deadline: The instant to move to.
    @_disfavoredOverload
    nonisolated(nonsending) public func advance(to deadline: Instant) async {
        await advance(to: deadline)
    }

    /// Advances virtual time until nothing waits on it, failing the running test if that has not
    /// happened within `timeout` of real time.
    ///
    /// Use it when the test cares about where the code ends up, not about the steps in between. A
    /// sleep that always comes back (an endless timer) would keep it going forever; when the timeout
    /// passes, every waiting sleep is cancelled (its task sees `CancellationError`) and the test
    /// fails with a message saying how many sleeps were waiting and how far virtual time got.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let ticks = Task {
    ///     var count = 0
    ///     for await _ in clock.timer(interval: .seconds(1)).prefix(5) { count += 1 }
    ///     return count
    /// }
    /// await clock.run()
    /// #expect(await ticks.value == 5)
    /// ```
    ///
    /// For the clock of a test scheduler, the scheduler's actions count as waiting work too, and run
    /// in order with the sleeps.
    ///
    /// - Parameters:
    ///   - timeout: How much real time the run may take.
    ///   - fileID: The file ID where a timeout is reported.
    ///   - filePath: The file path where a timeout is reported.
    ///   - line: The line where a timeout is reported.
    ///   - column: The column where a timeout is reported.
    nonisolated(nonsending) public func run(
        timeout: Swift.Duration = .milliseconds(500),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let realClock = ContinuousClock()
        let giveUp = realClock.now.advanced(by: timeout)
        while await timeline.runNext(at: caller) {
            guard realClock.now < giveUp else {
                // The task the last wake-up resumed goes first, so its next sleep is cancelled too.
                await timeline.settle()
                let waiting = cancelAllSleeps()
                TestIssueReporter.report(
                    "TestClock.run(timeout:) gave up after \(ReadableTime.describe(timeout)) of real time, at \(ReadableTime.describe(now.offset)) of virtual time: \(waiting) sleep\(waiting == 1 ? " was" : "s were") still waiting (now cancelled). Either the code keeps sleeping (advance the clock step by step instead), or it needs a longer timeout.",
                    at: caller)
                return
            }
        }
    }

    /// Ends a sleep with `outcome`: resumes its task if it has suspended (else the task finds the
    /// outcome when it does), and takes its wake-up off the time line if it ended otherwise.
    private func endSleep(_ id: Int, with outcome: Result<Void, any Error>) {
        let ended: (ticket: Int?, continuation: CheckedContinuation<Bool, any Error>?)? = lock.withLock {
            guard let sleep = sleeps[id], sleep.outcome == nil else { return nil }
            if sleep.continuation == nil {
                sleeps[id]?.outcome = outcome
            } else {
                sleeps[id] = nil
            }
            return (sleep.ticket, sleep.continuation)
        }
        guard let ended else { return }
        switch outcome {
        case .success:
            guard let continuation = ended.continuation else { return }
            timeline.beginResumption()
            continuation.resume(returning: true)
        case .failure(let error):
            if let ticket = ended.ticket { timeline.cancel(ticket) }
            ended.continuation?.resume(throwing: error)
        }
    }

    /// Cancels every waiting sleep; returns how many there were.
    private func cancelAllSleeps() -> Int {
        let waiting = lock.withLock { sleeps.filter { $0.value.outcome == nil }.map(\.key) }
        for id in waiting { endSleep(id, with: .failure(CancellationError())) }
        return waiting.count
    }
}

extension TestClock where Duration == Swift.Duration {
    /// Creates a test clock with a virtual time of its own, starting at its origin.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// #expect(clock.now == .init(offset: .zero))
    /// ```
    public convenience init() {
        self.init(now: .init())
    }
}

extension Clock where Self == TestClock<Swift.Duration> {
    /// A new test clock with a virtual time of its own, where a `Clock` is expected.
    ///
    /// ```swift
    /// let model = CountdownModel(from: 3, clock: .test)
    /// ```
    public static var test: Self {
        TestClock()
    }
}
