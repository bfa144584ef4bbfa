/// How a call to downstream gets the ``DeliveryTurn`` of an operator with several upstreams.
///
/// Operators such as `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` hear from two upstreams
/// that may call them from different threads at once, and serialize what they pass downstream with a
/// turn: a thread holds it while it calls downstream, with no lock held. A call from the thread that
/// already holds it (made from inside downstream) goes ahead nested, as it would under Combine's
/// recursive lock; a call from another thread waits for the turn with ``awaitTurn(lock:_:)``.
@usableFromInline
enum TurnEntry {
    /// The turn was free and the caller took it: it calls downstream, then releases the turn.
    case taken
    /// The caller already holds the turn, further up its own stack: it calls downstream at once and
    /// leaves the turn to the outer call.
    case nested
    /// Another thread holds the turn: the caller waits for it, calls downstream, then releases it.
    case busy
}

extension DeliveryTurn {
    /// Takes the turn for `thread` if nobody holds it, and tells the caller how to proceed. Call with
    /// the owner's lock held.
    @inlinable
    mutating func enter(by thread: ThreadIdentity) -> TurnEntry {
        if !isHeld {
            take(by: thread)
            return .taken
        }
        return holder == thread ? .nested : .busy
    }
}

/// A state whose turn lets a call from the holder go ahead nested, as under Combine's recursive lock
/// (the `untilOutputFrom` operators, `switchToLatest`).
@usableFromInline
protocol NestingTurnState {
    /// Which thread is calling downstream.
    var turn: DeliveryTurn { get set }

    /// Downstream cancelled: a completion that had yet to get the turn no longer goes down.
    var downstreamCancelled: Bool { get }
}

/// The class of an operator whose ``NestingTurnState`` serializes its calls downstream: it owns the
/// lock and the state, and runs each call downstream holding the turn.
@usableFromInline
protocol NestingTurnDelivering: AnyObject {
    associatedtype State: NestingTurnState

    var lock: Lock { get }

    /// Guarded by `lock`.
    var state: State { get set }
}

extension NestingTurnDelivering {
    /// Passes a completion downstream once the calling thread holds the turn (see
    /// ``sendCompletion(_:thread:_:)``).
    @inlinable
    func sendCompletionDownstream(_ body: () -> Void) {
        let thread = ThreadIdentity.current
        let entry = lock.withLock { state.turn.enter(by: thread) }
        sendCompletion(entry, thread: thread, body)
    }

    /// Passes a completion downstream holding the turn as `entry` says, unless downstream has
    /// cancelled by the time this thread holds it. A completion decided on one thread can wait for
    /// the turn while another thread delivers, and downstream may cancel inside that delivery: once
    /// its `cancel()` has returned, the completion that waited is dropped. A nested completion, sent
    /// from inside downstream on the holder's thread, goes on, as under Combine's recursive lock.
    @inlinable
    func sendCompletion(_ entry: TurnEntry, thread: ThreadIdentity, _ body: () -> Void) {
        withTurn(entry, thread: thread) {
            guard entry == .nested || !lock.withLock({ state.downstreamCancelled }) else { return }
            body()
        }
    }

    /// Runs `body` holding the turn, as `entry` says: at once if nested, after waiting if busy, and
    /// releases the turn afterwards unless an outer call holds it.
    @inlinable
    func withTurn<Result>(_ entry: TurnEntry, thread: ThreadIdentity, _ body: () -> Result) -> Result {
        switch entry {
        case .nested:
            return body()
        case .busy:
            awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
        case .taken:
            break
        }
        let result = body()
        lock.withLock { state.turn.release() }?.unpark()
        return result
    }
}
