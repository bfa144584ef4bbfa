import Streams

/// One virtual time line: a current instant that moves only when told to, and the work waiting on it,
/// run in order of due instant (first in, first out among equals).
///
/// ``TestScheduler`` keeps its actions here, and a ``TestClock`` keeps its sleeps here, either on a
/// time line of its own or on the one of the scheduler it is a view of. Actions run outside the lock,
/// on the thread (or, for the `async` forms, the executor) of whoever advances.
final class VirtualTimeline<Instant: Comparable>: @unchecked Sendable {  // @unchecked: state guarded by `lock`.

    /// One piece of waiting work; `ticket` orders equal instants and identifies it for cancellation.
    private struct Entry {
        let ticket: Int
        let due: Instant
        let action: () -> Void
    }

    private let lock = Lock()
    private var current: Instant
    private var entries: [Entry] = []
    private var nextTicket = 0
    private var resumptionsInFlight = 0
    private var resumptionsSinceSettled = 0

    init(now: Instant) {
        current = now
    }

    /// The current instant.
    var now: Instant {
        lock.withLock { current }
    }

    /// Notes that a task sleeping on this time line was resumed and has yet to run again.
    func beginResumption() {
        lock.withLock {
            resumptionsInFlight += 1
            resumptionsSinceSettled += 1
        }
    }

    /// Notes that a task counted by ``beginResumption()`` runs again.
    func endResumption() {
        lock.withLock { resumptionsInFlight -= 1 }
    }

    /// How much work is waiting.
    var scheduledCount: Int {
        lock.withLock { entries.count }
    }

    /// Puts `action` on the time line at `instant` (at the current instant if `nil` or already
    /// passed), to run on a later advance; returns the ticket that ``cancel(_:)`` takes.
    @discardableResult
    func schedule(at instant: Instant?, _ action: @escaping () -> Void) -> Int {
        lock.withLock {
            let due = instant.map { Swift.max($0, current) } ?? current
            let ticket = nextTicket
            nextTicket += 1
            entries.append(Entry(ticket: ticket, due: due, action: action))
            return ticket
        }
    }

    /// Takes the work with this ticket off the time line, if it has not run yet.
    func cancel(_ ticket: Int) {
        lock.withLock { entries.removeAll { $0.ticket == ticket } }
    }

    /// Moves the current instant to `instant` if that is later.
    func moveForward(to instant: Instant) {
        lock.withLock {
            if current < instant { current = instant }
        }
    }

    /// Removes and returns the earliest work due by `limit` (any, if `nil`), first moving the current
    /// instant to its due instant.
    func takeNext(dueBy limit: Instant?) -> (() -> Void)? {
        lock.withLock {
            var best: Int?
            for index in entries.indices {
                let candidate = entries[index]
                if let limit, candidate.due > limit { continue }
                if let chosen = best.map({ entries[$0] }) {
                    if candidate.due < chosen.due || (candidate.due == chosen.due && candidate.ticket < chosen.ticket) {
                        best = index
                    }
                } else {
                    best = index
                }
            }
            guard let best else { return nil }
            let entry = entries.remove(at: best)
            if current < entry.due { current = entry.due }
            return entry.action
        }
    }

    /// Runs, on the calling thread, every piece of work due by `instant`, including work scheduled
    /// meanwhile, then moves the current instant to `instant` if that is later. Misuse the work finds
    /// is reported at `caller`, the test's call that advances.
    func advance(to instant: Instant, at caller: CallSite) {
        while let next = takeNext(dueBy: instant) {
            Self.perform(next, at: caller)
        }
        moveForward(to: instant)
    }

    /// Runs `work` taken off the time line, on the calling thread, for the test's call `caller`: where
    /// misuse it finds (see ``TestIssueReporter/advancingCall``) is reported.
    static func perform(_ work: () -> Void, at caller: CallSite) {
        TestIssueReporter.$advancingCall.withValue(caller) {
            work()
        }
    }

    /// The `async` form of ``advance(to:)``: before each piece of work and after the last, other tasks
    /// get their turn (see ``letOtherTasksRun()``), so work they put on the time line meanwhile is
    /// seen. The work runs on the caller's executor.
    nonisolated(nonsending) func advance(to instant: Instant, at caller: CallSite) async {
        while true {
            await settle()
            guard let next = takeNext(dueBy: instant) else { break }
            Self.perform(next, at: caller)
        }
        moveForward(to: instant)
    }

    /// Lets other tasks run, then runs the earliest waiting piece of work, wherever it is on the time
    /// line; `false` when nothing was waiting. The work runs on the caller's executor, for the test's
    /// call `caller`.
    nonisolated(nonsending) func runNext(at caller: CallSite) async -> Bool {
        await settle()
        guard let next = takeNext(dueBy: nil) else { return false }
        Self.perform(next, at: caller)
        return true
    }

    /// Lets other tasks run (see ``letOtherTasksRun()``), then goes on letting them run while a task
    /// this time line resumed has not run again yet (up to a limit, for a task that cannot run), so
    /// that the work such a task schedules before it next suspends is on the time line.
    nonisolated(nonsending) func settle() async {
        let resumed = lock.withLock {
            defer { resumptionsSinceSettled = 0 }
            return resumptionsSinceSettled > 0
        }
        await Self.letOtherTasksRun()
        var rounds = 0
        while rounds < Self.resumptionRounds, lock.withLock({ resumptionsInFlight > 0 }) {
            await Self.yieldRound()
            rounds += 1
        }
        // A task that runs elsewhere than the caller goes on concurrently: give it time to get to
        // its next suspension.
        if rounds > 0 || resumed { await Self.letOtherTasksRun() }
    }

    /// How many times the `async` forms step aside for other tasks before each piece of work.
    private static var yieldRounds: Int { 20 }

    /// How many more times they step aside, at most, for a resumed task to run again.
    private static var resumptionRounds: Int { 10_000 }

    /// Suspends the caller a number of times, each time until a low-priority task on the global
    /// executor has had its turn, so that tasks already waiting to run, there or on the caller's
    /// actor, go first.
    static func letOtherTasksRun() async {
        for _ in 0..<yieldRounds {
            await yieldRound()
        }
    }

    /// Suspends the caller until a low-priority task on the global executor has had its turn.
    private static func yieldRound() async {
        await Task.detached(priority: .background) { await Task.yield() }.value
    }
}
