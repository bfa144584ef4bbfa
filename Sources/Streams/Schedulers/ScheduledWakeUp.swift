/// One call to ``Scheduler/sleep(for:tolerance:options:)``: the scheduled wake-up, the waiting
/// continuation, and how the wait ends, decided once by whichever comes first, the wake-up or
/// cancellation.
///
/// The wake-up is scheduled before the task suspends, so either end may come before the continuation
/// is registered: the outcome is then kept, and ``wait(_:)`` resumes the continuation at once. The
/// continuation is resumed, and the wake-up's repetition cancelled, outside the lock; whatever
/// arrives after the end (a second firing, a late cancellation, the repetition handed over after
/// the end) only cancels the repetition.
// @unchecked: `continuation`, `repetition` and `outcome` are guarded by `lock`.
final class ScheduledWakeUp: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var repetition: (any Cancellable)?
    /// `nil` while the wait goes on; then `nil` for a wake-up, or the error the wait ends with.
    private var outcome: (any Error)??

    init() {}

    /// Keeps the scheduled wake-up so that the end can cancel it; cancels it now if the end came first.
    func hold(_ repetition: any Cancellable) {
        let over = lock.withLock { () -> Bool in
            guard outcome == nil else { return true }
            self.repetition = repetition
            return false
        }
        if over { repetition.cancel() }
    }

    /// Suspends until the wait ends, and ends it with `CancellationError` if the task is cancelled.
    ///
    /// It runs on `isolation`, the caller's actor, and so does the operation below, which captures
    /// it: without that capture the operation would run on the global executor, and a resumed task
    /// would get back to its actor only after a detour there.
    func wait(isolation: isolated (any Actor)? = #isolation) async throws {
        try await withTaskCancellationHandler {
            _ = isolation
            try await withCheckedThrowingContinuation { wait($0) }
        } onCancel: {
            finish(throwing: CancellationError())
        }
    }

    /// Registers the waiting continuation, or resumes it at once if the wait has already ended.
    private func wait(_ continuation: CheckedContinuation<Void, any Error>) {
        let ended = lock.withLock { () -> (any Error)?? in
            if outcome == nil { self.continuation = continuation }
            return outcome
        }
        if let ended { Self.resume(continuation, with: ended) }
    }

    /// Ends the wait: with `error` if there is one, else as woken up. Only the first call counts.
    func finish(throwing error: (any Error)?) {
        let (continuation, repetition, first) = lock.withLock {
            () -> (CheckedContinuation<Void, any Error>?, (any Cancellable)?, Bool) in
            guard outcome == nil else { return (nil, nil, false) }
            outcome = .some(error)
            defer {
                self.continuation = nil
                self.repetition = nil
            }
            return (self.continuation, self.repetition, true)
        }
        guard first else { return }
        repetition?.cancel()
        if let continuation { Self.resume(continuation, with: error) }
    }

    private static func resume(_ continuation: CheckedContinuation<Void, any Error>, with error: (any Error)?) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }
}

/// A cancellable that may be cancelled from any thread, and is cancelled at most once: what an
/// `AsyncStream`'s termination handler, which is `@Sendable`, holds on to.
// @unchecked: `cancellable` is guarded by `lock` and taken out of it before being cancelled.
final class CancelOnce: @unchecked Sendable {
    private let lock = Lock()
    private var cancellable: (any Cancellable)?

    init(_ cancellable: any Cancellable) {
        self.cancellable = cancellable
    }

    /// Cancels the wrapped cancellable the first time it is called.
    func cancel() {
        let cancellable = lock.withLock { () -> (any Cancellable)? in
            defer { self.cancellable = nil }
            return self.cancellable
        }
        cancellable?.cancel()
    }
}
