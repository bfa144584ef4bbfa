/// Where one subscription of an ``AsyncSequencePublisher`` stands: a plain value its subscription
/// keeps under its lock. Each method makes one decision and returns what the caller does next,
/// outside the lock.
///
/// The iterating task calls the iterator's `next()` only when it has found demand, and takes one
/// unit of it for each element it delivers; a subscriber's request starts the task, or resumes it
/// when it waits for demand; cancelling, finishing or failing ends the iteration.
@usableFromInline
struct AsyncSequenceIterationState {
    /// Where the iteration stands.
    @usableFromInline
    enum Phase {
        /// Nothing requested yet: no task.
        case idle
        /// The task is iterating, or about to look for demand.
        case running
        /// The task waits for demand, suspended on this continuation (resumed with `true` to go on,
        /// `false` to stop).
        case waiting(CheckedContinuation<Bool, Never>)
        /// Cancelled, finished or failed: nothing more is asked for or delivered.
        case ended
    }

    /// What the caller of ``request(_:)`` does next.
    @usableFromInline
    enum RequestAction {
        /// Nothing: the task is running, or the iteration has ended.
        case none
        /// Start the iterating task.
        case start
        /// Resume the task waiting for demand.
        case resume(CheckedContinuation<Bool, Never>)
    }

    @usableFromInline
    var phase = Phase.idle
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Whether the iteration has ended.
    @inlinable
    var hasEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    /// The subscriber asks for more elements.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .ended:
            return .none
        case .idle:
            demand += more
            phase = .running
            return .start
        case .running:
            demand += more
            return .none
        case .waiting(let continuation):
            demand += more
            phase = .running
            return .resume(continuation)
        }
    }

    /// The task looks for demand before asking for the next element: `true` to ask, `false` to stop,
    /// `nil` to wait (then ``wait(on:)``).
    @inlinable
    var readiness: Bool? {
        if hasEnded { return false }
        return demand > 0 ? true : nil
    }

    /// The task found no demand and suspends on `continuation`; returns the answer to resume it with
    /// at once if the wait is already over, else `nil` (a request or the end resumes it).
    @inlinable
    mutating func wait(on continuation: CheckedContinuation<Bool, Never>) -> Bool? {
        if let ready = readiness { return ready }
        phase = .waiting(continuation)
        return nil
    }

    /// The iterator returned an element: takes one unit of demand for it; `false` if the iteration
    /// has ended meanwhile and the element is dropped.
    @inlinable
    mutating func takeDemandForElement() -> Bool {
        guard !hasEnded, demand > 0 else { return false }
        demand -= 1
        return true
    }

    /// Adds the demand the subscriber returned for an element.
    @inlinable
    mutating func add(_ more: Subscribers.Demand) {
        guard !hasEnded else { return }
        demand += more
    }

    /// Ends the iteration; returns whether it was still going, and the continuation of a task
    /// waiting for demand, to resume with `false`.
    @inlinable
    mutating func end() -> (wasGoing: Bool, waiting: CheckedContinuation<Bool, Never>?) {
        let previous = phase
        phase = .ended
        demand = .none
        switch previous {
        case .ended: return (false, nil)
        case .waiting(let continuation): return (true, continuation)
        case .idle, .running: return (true, nil)
        }
    }
}
