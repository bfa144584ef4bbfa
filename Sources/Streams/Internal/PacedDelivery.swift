/// The calls a time-based operator (debounce, throttle, collect by time) owes its downstream, made
/// one at a time and never with a lock held.
///
/// These operators reach their downstream from scheduled actions, and on a concurrent scheduler two
/// of those can run at once; a synchronous scheduler can also run one from inside a delivery. The
/// operator keeps one `PacedDelivery` under its lock. Whoever has something to deliver calls
/// ``enqueue(_:)``: if no delivery is under way it becomes the deliverer, and after releasing the lock
/// it takes events with ``next()`` (under the lock again) and delivers each with the lock released,
/// until the queue is empty. Anyone else only queues. So the downstream is never called
/// concurrently, and a delivery started from inside another runs after it, in order.
@usableFromInline
struct PacedDelivery<Event> {
    /// Events waiting for the deliverer, oldest first.
    @usableFromInline
    var queue: [Event] = []

    /// Whether a deliverer is draining ``queue``.
    @usableFromInline
    var isDraining = false

    @inlinable
    init() {}

    /// Queues an event; returns whether the caller has become the deliverer and must drain.
    @inlinable
    mutating func enqueue(_ event: Event) -> Bool {
        queue.append(event)
        guard !isDraining else { return false }
        isDraining = true
        return true
    }

    /// The next event for the deliverer, or `nil` when the queue is empty, which ends the drain.
    @inlinable
    mutating func next() -> Event? {
        guard !queue.isEmpty else {
            isDraining = false
            return nil
        }
        return queue.removeFirst()
    }

    /// Drops every waiting event, as when the subscription is cancelled.
    @inlinable
    mutating func discard() {
        queue.removeAll()
    }
}
