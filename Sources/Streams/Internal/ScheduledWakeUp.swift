/// One call to ``Scheduler/sleep(for:tolerance:options:)``: the waiting continuation and the
/// scheduled wake-up, ended exactly once by whichever comes first, the wake-up or cancellation.
///
/// The continuation is resumed, and the wake-up's repetition cancelled, outside the lock. Whatever
/// arrives after the end (a second firing of the repetition, a late cancellation, the repetition
/// handed over after the end) only cancels the repetition.
// @unchecked: `continuation`, `repetition` and `isOver` are guarded by `lock`.
final class ScheduledWakeUp: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var repetition: (any Cancellable)?
    private var isOver = false

    init() {}

    /// Registers the waiting continuation; returns `false`, having resumed it with
    /// `CancellationError`, if the wait was cancelled before it began.
    func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = lock.withLock { () -> Bool in
            guard !isOver else { return true }
            self.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Keeps the scheduled wake-up so that the end can cancel it; cancels it now if the end came first.
    func hold(_ repetition: any Cancellable) {
        let over = lock.withLock { () -> Bool in
            guard !isOver else { return true }
            self.repetition = repetition
            return false
        }
        if over { repetition.cancel() }
    }

    /// Ends the wait: resumes the continuation, normally or with `error`, and cancels the wake-up.
    /// Only the first call does anything.
    func finish(throwing error: (any Error)?) {
        let (continuation, repetition) = lock.withLock {
            () -> (CheckedContinuation<Void, any Error>?, (any Cancellable)?) in
            guard !isOver else { return (nil, nil) }
            isOver = true
            defer {
                self.continuation = nil
                self.repetition = nil
            }
            return (self.continuation, self.repetition)
        }
        repetition?.cancel()
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume()
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
