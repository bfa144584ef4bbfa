import Synchronization

/// Counts the states that have reached the store, and lets a task wait until a given one has.
///
/// The bridge from the database records each state once the store has published it to every
/// observer; a writer waits for the state its write produced. Waiting resumes with no clock
/// involved, so a program and its tests see the same observers woken on every run.
final class StateArrivals: Sendable {
    /// A task waiting for the state numbered `number`.
    private struct Waiter {
        let number: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Everything the lock guards.
    private struct Ledger {
        /// How many states have arrived.
        var arrived = 0
        /// How many states have been announced: the first from the database, then one per write.
        var expected = 1
        /// Why no more states will arrive, once none will.
        var end: (any Error)?
        /// The tasks waiting for a state that has not arrived yet.
        var waiters: [Waiter] = []
    }

    private let ledger = Mutex(Ledger())

    /// Announces one more state, produced by a write that is about to commit.
    ///
    /// - Returns: The number of that state, to pass to ``wait(for:)``.
    func expectOneMore() -> Int {
        ledger.withLock { ledger in
            ledger.expected += 1
            return ledger.expected
        }
    }

    /// Records that one more state has reached every observer, and resumes the tasks waiting for it.
    func recordArrival() {
        let resumed = ledger.withLock { ledger in
            ledger.arrived += 1
            let arrived = ledger.arrived
            let resumed = ledger.waiters.filter { $0.number <= arrived }
            ledger.waiters.removeAll { $0.number <= arrived }
            return resumed
        }
        for waiter in resumed { waiter.continuation.resume() }
    }

    /// Records that no more states will arrive, and fails every wait with `error`.
    func recordEnd(_ error: any Error) {
        let failed = ledger.withLock { ledger in
            ledger.end = ledger.end ?? error
            defer { ledger.waiters.removeAll() }
            return ledger.waiters
        }
        for waiter in failed { waiter.continuation.resume(throwing: error) }
    }

    /// Waits until the state numbered `number` has arrived: at once if it already has.
    ///
    /// - Parameter number: The state's number: 1 for the first, or what ``expectOneMore()`` returned.
    /// - Throws: The error that ended the arrivals, if they ended first.
    func wait(for number: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = ledger.withLock { ledger -> Result<Void, any Error>? in
                if ledger.arrived >= number { return .success(()) }
                if let end = ledger.end { return .failure(end) }
                ledger.waiters.append(Waiter(number: number, continuation: continuation))
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }
}
