/// The state of `drop(untilOutputFrom:)` (`Publishers.DropUntilOutput.Inner`), kept under its lock.
/// Each method decides what an event does and returns what must then be done outside the lock; the
/// calling thread's identity is passed in.
///
/// It keeps Combine's edge cases: the other publisher's completion before its first element goes
/// downstream (every time it arrives) and cancels upstream, yet a later element from the other
/// publisher still opens the gate; the element that opens the gate releases the other subscription
/// without cancelling it, and a new one is then accepted; an element dropped beyond the demand
/// downstream gave stops the program (but one still on its way after downstream cancelled is
/// ignored). Calls downstream go through the turn, a call from inside downstream nested; a
/// completion that waited for the turn while downstream cancelled is dropped.
@usableFromInline
struct DropUntilOutputState<Trigger: AnyObject>: NestingTurnState {
    /// The upstream subscription, while there is one.
    @usableFromInline
    var upstreamSubscription: (any Subscription)?

    /// The other publisher's subscription, until it sends its first element or completes.
    @usableFromInline
    var otherSubscription: (any Subscription)?

    /// The other publisher produced an element; upstream elements now pass.
    @usableFromInline
    var triggered = false

    /// The other publisher completed before producing an element, so a further subscription from it
    /// is refused.
    @usableFromInline
    var otherCompleted = false

    @usableFromInline
    var upstreamCompleted = false

    @usableFromInline
    var cancelled = false

    /// Downstream cancelled: a completion still waiting for the turn is dropped.
    @inlinable
    var downstreamCancelled: Bool { cancelled }

    /// What downstream requested, less the elements dropped so far.
    @usableFromInline
    var pendingDemand = Subscribers.Demand.none

    @usableFromInline
    var turn = DeliveryTurn()

    /// The subscriber to the other publisher (set before anyone else sees the operator), until
    /// nothing it could report matters any more (after cancel, or once upstream has completed and
    /// the gate has opened) and it is told to let go of the operator, so that an other publisher that
    /// outlives the stream does not keep the downstream alive. Weak: the other publisher keeps it
    /// alive, and the operator must not, while it holds the operator.
    @usableFromInline
    weak var trigger: Trigger?

    @inlinable
    init() {}

    /// Upstream sent its subscription: returns what to ask of it, or `nil` to cancel it.
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Subscribers.Demand? {
        guard upstreamSubscription == nil, !cancelled, !upstreamCompleted else { return nil }
        upstreamSubscription = subscription
        return pendingDemand
    }

    /// Upstream sent an element: returns how this thread enters the turn to pass it on, or `nil`
    /// when it is dropped.
    ///
    /// Once downstream has cancelled, an element still on its way is ignored whatever the demand:
    /// after the gate opened, upstream was asked for what downstream returned for each element,
    /// which ``pendingDemand`` does not count, so such an element is no programmer error.
    @inlinable
    mutating func receiveUpstreamValue(thread: ThreadIdentity) -> TurnEntry? {
        guard !cancelled else { return nil }
        guard triggered, !upstreamCompleted else {
            precondition(pendingDemand > 0, "drop(untilOutputFrom:) received a value beyond the demand it requested")
            pendingDemand -= 1
            return nil
        }
        return turn.enter(by: thread)
    }

    /// Upstream completed: returns the other publisher's subscription to cancel and, once the gate
    /// is open, the trigger to detach; `nil` when the completion is ignored.
    @inlinable
    mutating func upstreamDidComplete() -> (other: (any Subscription)?, trigger: Trigger?)? {
        guard !cancelled, !upstreamCompleted else { return nil }
        upstreamCompleted = true
        upstreamSubscription = nil
        let trigger = triggered ? self.trigger : nil
        if triggered { self.trigger = nil }
        return (otherSubscription.take(), trigger)
    }

    /// The other publisher sent its subscription: returns whether to keep it.
    @inlinable
    mutating func receiveOther(subscription: any Subscription) -> Bool {
        guard otherSubscription == nil, !otherCompleted, !cancelled, !upstreamCompleted else { return false }
        otherSubscription = subscription
        return true
    }

    /// The other publisher sent an element: the gate opens. Returns the trigger to detach once
    /// upstream has completed.
    @inlinable
    mutating func otherDidSend() -> Trigger? {
        triggered = true
        otherSubscription = nil
        guard upstreamCompleted else { return nil }
        defer { trigger = nil }
        return trigger
    }

    /// The other publisher completed: before the first element, the completion goes downstream and
    /// upstream is cancelled (the returned subscription); `nil` when nothing happens.
    @inlinable
    mutating func otherDidComplete() -> (any Subscription)?? {
        otherSubscription = nil
        guard !triggered, !cancelled else { return nil }
        otherCompleted = true
        return .some(upstreamSubscription.take())
    }

    /// Downstream asked for `more`: returns the upstream subscription to pass it to.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        pendingDemand += more
        return upstreamSubscription
    }

    /// Downstream cancelled: returns upstream's and the other publisher's subscriptions to cancel,
    /// and the trigger to detach, unless already cancelled.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, other: (any Subscription)?, trigger: Trigger?)? {
        guard !cancelled else { return nil }
        cancelled = true
        defer { trigger = nil }
        return (upstreamSubscription.take(), otherSubscription.take(), trigger)
    }
}
