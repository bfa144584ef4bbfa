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
