/// The calls a time-based operator (debounce, throttle, collect by time) owes its downstream, made
/// one at a time and never with a lock held.
///
/// These operators reach their downstream from scheduled actions, and on a concurrent scheduler two
/// of those can run at once; a synchronous scheduler can also run one from inside a delivery. The
/// operator keeps one `PacedDelivery` in its state (a ``PacedState``), and delivery follows the rules of
/// ``DeliveryTurn``. Whoever has something to deliver calls ``enqueue(_:thread:)``, which says what the caller
/// must do next (``Duty``): if nobody holds the turn, the caller takes it and drains — after
/// releasing the lock it takes events with ``next(handingOverTo:)`` (under the lock again) and
/// delivers each with the lock released, until the queue is empty; if the caller itself is draining
/// (a re-entrant call), the event just waits in the queue; if another thread drains, the caller waits
/// for the turn and then drains, so it returns only once its event has gone out. So the downstream is
/// never called concurrently, a delivery started from inside another runs after it, in order, and the
/// queue holds at most one event per thread.
@usableFromInline
struct PacedDelivery<Event> {
    /// What a caller of ``enqueue(_:thread:)`` must do once it has released the lock.
    @usableFromInline
    enum Duty: Int, Comparable {
        /// Nothing: the event waits for the draining thread, which is the caller.
        case none
        /// Wait for the turn another thread holds, then drain.
        case waitThenDrain
        /// The caller took the turn: drain.
        case drain

        @inlinable
        static func < (lhs: Duty, rhs: Duty) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Events waiting for the deliverer, oldest first.
    @usableFromInline
    var queue = FIFOQueue<Event>()

    /// Which thread drains, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    @inlinable
    init() {}

    /// Queues an event; returns what the caller must do. Of several events queued under one hold of
    /// the lock, the caller does the most demanding of the duties returned (`max`).
    @inlinable
    mutating func enqueue(_ event: Event, thread: ThreadIdentity) -> Duty {
        queue.append(event)
        if turn.takeIfFree(by: thread) { return .drain }
        return turn.holder == thread ? .none : .waitThenDrain
    }

    /// The next event for the deliverer, or `nil` when the queue is empty, which ends the drain: the
    /// turn is then given up, to `waiter` if one was parked (wake it once the lock is released).
    @inlinable
    mutating func next(handingOverTo waiter: inout TurnWaiter?) -> Event? {
        guard !queue.isEmpty else {
            waiter = turn.release()
            return nil
        }
        return queue.removeFirst()
    }

    /// Drops every waiting event, as when the subscription is cancelled.
    @inlinable
    mutating func discard() {
        queue = FIFOQueue()
    }
}
