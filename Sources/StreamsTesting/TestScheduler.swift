public import Streams

/// A scheduler whose clock moves only when a test tells it to.
///
/// Work scheduled on a test scheduler waits until the test advances virtual time past its date, so
/// code that waits, delays, debounces or times out can be tested deterministically and instantly:
/// nothing sleeps, and every run sees the same interleaving.
///
/// Inject it where production code uses a real scheduler. With a type-erased scheduler parameter,
/// production passes `DispatchQueue.main.eraseToAnyScheduler()` and the test passes
/// `DispatchQueue.test.eraseToAnyScheduler()`; with a generic one, the test passes `DispatchQueue.test`
/// itself.
///
/// ```swift
/// final class SearchModel {
///     @Published var query = ""
///     private(set) var searches: [String] = []
///     private var cancellables = Set<AnyCancellable>()
///
///     init(scheduler: AnySchedulerOf<DispatchQueue>) {
///         $query
///             .debounce(for: .milliseconds(300), scheduler: scheduler)
///             .sink { [weak self] in self?.searches.append($0) }
///             .store(in: &cancellables)
///     }
/// }
///
/// @Test func searchesOnlyWhenTypingPauses() {
///     let scheduler = DispatchQueue.test
///     let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
///     model.query = "s"
///     scheduler.advance(by: .milliseconds(100))
///     model.query = "st"
///     scheduler.advance(by: .milliseconds(299))
///     #expect(model.searches == [])
///     scheduler.advance(by: .milliseconds(1))
///     #expect(model.searches == ["st"])
/// }
/// ```
///
/// The rules:
/// - An action scheduled without a date, or for a date not after ``now``, runs at the next
///   ``advance(by:)-7wt4e``, ``advance(to:)-1ld47`` or ``run()-4lg9v`` — even `advance(by: .zero)` — not at once.
/// - Actions run in order of their dates; actions due at the same instant run first in, first out.
/// - ``now`` moves to each action's date before the action runs, so the action sees its own time.
/// - Work scheduled while advancing runs in the same call if it falls due by the target.
/// - Virtual time only moves forward: ``advance(by:)-7wt4e`` with a negative stride fails the running
///   test with a message; ``advance(to:)-1ld47`` an instant already passed runs nothing and keeps the clock.
/// - A repeating action re-arms after each run and stops when its cancellable is cancelled; ``run()-4lg9v``
///   with a repeating action still armed stops and fails the test with a clear message instead of
///   running forever.
///
/// Any thread may schedule work; advancing is meant for the test's own thread.
///
/// In `async` tests, `await` the advancing methods: their `async` forms (``advance(by:)-90fed``,
/// ``advance(to:)-6b261``, ``run()-44ro8``) let other tasks run before each action, so work those tasks schedule,
/// such as a ``Streams/Scheduler/sleep(for:tolerance:options:)`` wake-up, is seen.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler,
    // @unchecked: mutable state lives in `timeline` and `clockView`, which lock it; actions run unlocked.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {

    /// Where virtual time and the scheduled actions are kept.
    let timeline: VirtualTimeline<SchedulerTimeType>

    /// The clock view of this scheduler's time, created on first use (see `clock`).
    let clockView = ClockViewSlot()

    /// How many actions ``run()-4lg9v`` performs before it decides a repeating action will never stop.
    public let runLimit: Int

    /// The instant virtual time started at: the `now` the scheduler was created with.
    ///
    /// Recorded times (``TimedTestSubscriber/events``, ``HotTestPublisher/subscriptions``, ...) and
    /// hot publisher scripts count from this instant.
    public let startTime: SchedulerTimeType

    /// Creates a test scheduler whose clock starts at `now`.
    ///
    /// - Parameters:
    ///   - now: The starting instant of virtual time.
    ///   - runLimit: How many actions ``run()-4lg9v`` may perform before it stops and fails the running
    ///     test with a message that a repeating action is still scheduled.
    public init(now: SchedulerTimeType, runLimit: Int = 100_000) {
        timeline = VirtualTimeline(now: now)
        startTime = now
        self.runLimit = runLimit
    }

    /// The current instant of virtual time.
    public var now: SchedulerTimeType {
        timeline.now
    }

    /// How much virtual time has passed since ``startTime``.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// scheduler.advance(by: .milliseconds(1500))
    /// #expect(scheduler.elapsed == .milliseconds(1500))
    /// ```
    public var elapsed: SchedulerTimeType.Stride {
        startTime.distance(to: now)
    }

    /// Zero: a test scheduler runs actions exactly at their dates.
    public var minimumTolerance: SchedulerTimeType.Stride {
        .zero
    }

    /// How many actions are waiting to run, repeating ones counted once.
    public var scheduledCount: Int {
        timeline.scheduledCount
    }

    /// Schedules an action to run at the current virtual time, on the next advance.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        timeline.schedule(at: nil, action)
    }

    /// Schedules an action to run when virtual time reaches `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        timeline.schedule(at: date, action)
    }

    /// Schedules an action to run at `date` and then every `interval`, until cancelled.
    ///
    /// With an interval of zero or less each run is due again at once, at the same instant; an
    /// operator may do that and cancel after the first run (a `debounce` for zero seconds does). One
    /// that keeps running at the same instant would never let advancing return: after
    /// ``sameInstantRepetitionLimit`` runs it fails the running test with a message that gives the
    /// interval, and stops repeating. A run whose next one would fall beyond the end of the clock
    /// (the time type's latest instant, such as `DispatchTime.distantFuture`) is the last: virtual
    /// time cannot go past its end.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repetition = Repetition()
        scheduleRepetition(at: date, interval: interval, repetition: repetition, action)
        return AnyCancellable { [weak self] in
            guard let ticket = repetition.cancel() else { return }
            self?.timeline.cancel(ticket)
        }
    }

    /// Moves virtual time forward by `stride`, running every action that falls due on the way.
    ///
    /// Virtual time only moves forward: a negative `stride` fails the running test with a message that
    /// gives the amount, such as `-250 ms`, and leaves the clock where it is.
    ///
    /// Misuse (a negative stride, or an action repeating forever at one instant) fails the running
    /// test at the line that calls this.
    ///
    /// - Parameters:
    ///   - stride: How far to move the clock; `.zero` runs only what is already due.
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    public func advance(
        by stride: SchedulerTimeType.Stride = .zero,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(by: stride, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves virtual time forward by `stride`; misuse fails the running test at `caller`.
    func advance(by stride: SchedulerTimeType.Stride, at caller: CallSite) {
        guard Self.movesForward(stride, at: caller) else { return }
        advance(to: now.advanced(by: stride), at: caller)
    }

    /// Moves virtual time forward to `instant`, running every action that falls due on the way.
    ///
    /// Virtual time only moves forward: an instant before ``now`` runs nothing (everything due by
    /// then has already run) and leaves the clock where it is, as combine-schedulers'
    /// `TestScheduler` does, so "advance to at least this instant" can be asked more than once.
    /// Only ``advance(by:)-7wt4e`` with a negative stride is a mistake, which fails the running test.
    ///
    /// Misuse (an action repeating forever at one instant) fails the running test at the line that
    /// calls this.
    ///
    /// - Parameters:
    ///   - instant: The instant to move the clock to; ``now`` runs only what is already due.
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    public func advance(
        to instant: SchedulerTimeType,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(to: instant, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves virtual time forward to `instant`; misuse found by the actions it runs fails the running
    /// test at `caller`.
    func advance(to instant: SchedulerTimeType, at caller: CallSite) {
        timeline.advance(to: instant, at: caller)
    }

    /// Runs every scheduled action, moving virtual time to each one's date, until none is left.
    ///
    /// A repeating action that is never cancelled would keep this going forever; after ``runLimit``
    /// actions it stops and fails the running test with a message saying so. Use ``advance(by:)-7wt4e`` to test repeating
    /// work.
    ///
    /// Misuse (a run that never ends, or an action repeating forever at one instant) fails the running
    /// test at the line that calls this.
    ///
    /// - Parameters:
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    public func run(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        run(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs every scheduled action; misuse fails the running test at `caller`.
    func run(at caller: CallSite) {
        var performed = 0
        while true {
            if performed == runLimit, scheduledCount > 0 { return reportRunningForever(at: caller) }
            guard let next = timeline.takeNext(dueBy: nil) else { return }
            performed += 1
            VirtualTimeline<SchedulerTimeType>.perform(next, at: caller)
        }
    }

    // MARK: Advancing from async code

    /// Moves virtual time forward by `stride`, running every action that falls due on the way, and
    /// letting other tasks run before each action and after the last.
    ///
    /// Use it in `async` tests, where the work to advance is scheduled by other tasks: a task that
    /// awaits ``Streams/Scheduler/sleep(for:tolerance:options:)`` or iterates
    /// ``Streams/Scheduler/timer(interval:tolerance:options:)`` puts its wake-up on the scheduler only once
    /// it has run that far. Before taking each due action this method yields to other tasks a number
    /// of times, so that such work is on the scheduler by then, and the tasks an action resumes get
    /// to run and schedule their next step within the same call.
    ///
    /// ```swift
    /// @Test @MainActor func wakesUpAfterOneSecond() async throws {
    ///     let scheduler = DispatchQueue.test
    ///     let task = Task { try await scheduler.sleep(for: .seconds(1)) }
    ///     await scheduler.advance(by: .milliseconds(999))
    ///     #expect(scheduler.scheduledCount == 1)  // Still asleep.
    ///     await scheduler.advance(by: .milliseconds(1))
    ///     try await task.value                     // Awake.
    /// }
    /// ```
    ///
    /// When an action wakes a sleep on the scheduler's `clock` (a `TestClock` on this time), it also
    /// waits until the woken task runs again, so that the task's next sleep is on the time line before
    /// it goes on. Yielding gives other tasks the opportunity to run; it cannot force a task on another
    /// thread to get anywhere. Tests are deterministic when the tasks they start share the test's
    /// actor, as with a `@MainActor` test, or run on a serial executor.
    ///
    /// Virtual time only moves forward: a negative `stride` fails the running test with a message that
    /// gives the amount, such as `-250 ms`, and leaves the clock where it is.
    ///
    /// Misuse (a negative stride, or an action repeating forever at one instant) fails the running
    /// test at the line that calls this.
    ///
    /// - Parameters:
    ///   - stride: How far to move the clock; `.zero` runs only what is already due.
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    @MainActor
    public func advance(
        by stride: SchedulerTimeType.Stride = .zero,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await advance(by: stride, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves virtual time forward by `stride`, letting other tasks run; misuse fails the running test
    /// at `caller`.
    @MainActor
    func advance(by stride: SchedulerTimeType.Stride, at caller: CallSite) async {
        guard Self.movesForward(stride, at: caller) else { return }
        await advance(to: now.advanced(by: stride), at: caller)
    }

    /// Moves virtual time forward to `instant`, running every action that falls due on the way, and
    /// letting other tasks run before each action and after the last.
    ///
    /// The `async` form of ``advance(to:)-1ld47``; see ``advance(by:)-90fed`` for how it lets other tasks run.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let task = Task { try await scheduler.sleep(until: scheduler.startTime.advanced(by: .seconds(5))) }
    /// await scheduler.advance(to: scheduler.startTime.advanced(by: .seconds(5)))
    /// try await task.value
    /// ```
    ///
    /// Like ``advance(to:)-1ld47``, an instant before ``now`` runs nothing and leaves the clock where
    /// it is.
    ///
    /// Misuse (an action repeating forever at one instant) fails the running test at the line that
    /// calls this.
    ///
    /// - Parameters:
    ///   - instant: The instant to move the clock to; ``now`` runs only what is already due.
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    @MainActor
    public func advance(
        to instant: SchedulerTimeType,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await advance(to: instant, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves virtual time forward to `instant`, letting other tasks run; misuse found by the actions
    /// it runs fails the running test at `caller`.
    @MainActor
    func advance(to instant: SchedulerTimeType, at caller: CallSite) async {
        await timeline.advance(to: instant, at: caller)
    }

    /// Runs every scheduled action, moving virtual time to each one's date, until none is left,
    /// letting other tasks run before each action and after the last.
    ///
    /// The `async` form of ``run()-4lg9v``: other tasks may schedule more work while it runs, and it ends
    /// only when, after they have had their turn, nothing is scheduled. Like ``run()-4lg9v``, it stops,
    /// failing the running test, after ``runLimit`` actions.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let task = Task {
    ///     await scheduler.timer(interval: .seconds(1)).prefix(3).reduce(0) { @Sendable count, _ in count + 1 }
    /// }
    /// await scheduler.run()
    /// #expect(await task.value == 3)
    /// ```
    ///
    /// Misuse (a run that never ends, or an action repeating forever at one instant) fails the running
    /// test at the line that calls this.
    ///
    /// - Parameters:
    ///   - fileID: The file misuse is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line misuse is reported at; leave the default.
    ///   - column: The column misuse is reported at; leave the default.
    @MainActor
    public func run(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await run(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs every scheduled action, letting other tasks run; misuse fails the running test at
    /// `caller`.
    @MainActor
    func run(at caller: CallSite) async {
        var performed = 0
        while true {
            if performed == runLimit {
                await timeline.settle()
                if scheduledCount > 0 { return reportRunningForever(at: caller) }
            }
            guard await timeline.runNext(at: caller) else { return }
            performed += 1
        }
    }

    /// Whether `stride` moves virtual time forward (or not at all); a negative one fails the running
    /// test at `caller` with a message, and the clock stays where it is.
    private static func movesForward(_ stride: SchedulerTimeType.Stride, at caller: CallSite) -> Bool {
        guard stride < .zero else { return true }
        TestIssueReporter.report(
            "TestScheduler.advance(by:) was asked to move by \(ReadableTime.describe(stride)): virtual time only moves forward, so the stride must be zero or more.",
            at: caller)
        return false
    }

    /// Fails the running test when ``run()-4lg9v`` has performed more than ``runLimit`` actions; the
    /// run stops there, leaving the rest scheduled. The failure is recorded at `caller`, the call that
    /// ran.
    private func reportRunningForever(at caller: CallSite) {
        TestIssueReporter.report(
            "TestScheduler.run() performed \(runLimit) actions, reaching \(ReadableTime.describe(elapsed)) of virtual time, and work is still scheduled: a repeating action that is never cancelled never lets run() finish. Use advance(by:) or advance(to:) instead.",
            at: caller)
    }

    // MARK: Repetition

    private func scheduleRepetition(
        at date: SchedulerTimeType, interval: SchedulerTimeType.Stride, repetition: Repetition,
        _ action: @escaping () -> Void
    ) {
        let due = Swift.max(date, now)
        let ticket = timeline.schedule(at: due) { [weak self] in
            guard !repetition.isCancelled else { return }
            action()
            guard !repetition.isCancelled else { return }
            if interval <= .zero, repetition.ranAgainAtTheSameInstant() > Self.sameInstantRepetitionLimit {
                let message =
                    "TestScheduler ran an action repeating every \(ReadableTime.describe(interval)) \(Self.sameInstantRepetitionLimit) times at the same instant and stopped it: a repetition needs an interval longer than zero, or virtual time can never move past it."
                // Reported at the test's call that is running it (an advance or run of this scheduler
                // or of its clock): the repetition was scheduled by an operator, through the
                // `Scheduler` protocol, at a location in library code. Only work run by no such call
                // has no location in the test.
                if let caller = TestIssueReporter.advancingCall {
                    TestIssueReporter.report(message, at: caller)
                } else {
                    TestIssueReporter.reportMisuse(message)
                }
                return
            }
            let next = due.advanced(by: interval)
            // Past the end of the clock, advancing saturates: the next run would never come.
            if interval > .zero, !(due < next) { return }
            self?.scheduleRepetition(at: next, interval: interval, repetition: repetition, action)
        }
        if !repetition.arm(ticket) { timeline.cancel(ticket) }
    }

    /// How many times an action repeating with an interval of zero or less may run at one instant
    /// before the scheduler stops it and fails the test.
    public static var sameInstantRepetitionLimit: Int { 1_000 }

    /// The state of one repeating action: whether it was cancelled, the ticket of its next run, and how
    /// many times it ran again at the same instant.
    private final class Repetition: @unchecked Sendable {  // @unchecked: every property is guarded by `lock`.
        private let lock = Lock()
        private var cancelled = false
        private var ticket: Int?
        private var sameInstantRuns = 0

        /// Counts one more run at the same instant; returns the count.
        func ranAgainAtTheSameInstant() -> Int {
            lock.withLock {
                sameInstantRuns += 1
                return sameInstantRuns
            }
        }

        var isCancelled: Bool {
            lock.withLock { cancelled }
        }

        /// Records the ticket of the next run; `false` if the repetition was cancelled meanwhile.
        func arm(_ next: Int) -> Bool {
            lock.withLock {
                ticket = next
                return !cancelled
            }
        }

        /// Marks the repetition cancelled; returns the ticket of its waiting run, the first time.
        func cancel() -> Int? {
            lock.withLock {
                guard !cancelled else { return nil }
                cancelled = true
                return ticket
            }
        }
    }
}

/// A test scheduler with the time and options types of scheduler `S`, such as
/// `TestSchedulerOf<DispatchQueue>`.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>
