/// The state of `prefix(untilOutputFrom:)` (`Publishers.PrefixUntilOutput.Inner`), kept under its
/// lock. Each method decides what an event does and returns what must then be done outside the lock.
///
/// As in Combine: upstream's elements pass until the other publisher's first element, which cancels
/// upstream and finishes the stream (even before downstream has its subscription) without
/// cancelling the other publisher; the other publisher's completion alone changes nothing
/// downstream. Calls downstream go through the turn, a call from inside downstream nested.
@usableFromInline
struct PrefixUntilOutputState<Termination: AnyObject>: NestingTurnState {
    /// Where the operator stands with upstream.
    @usableFromInline
    var upstreamStatus = SubscriptionStatus.awaitingSubscription

    /// Where the termination subscriber stands with the other publisher.
    @usableFromInline
    var otherStatus = SubscriptionStatus.awaitingSubscription

    @usableFromInline
    var turn = DeliveryTurn()

    /// Downstream cancelled: a completion still waiting for the turn is dropped.
    @usableFromInline
    var downstreamCancelled = false

    /// The subscriber to the other publisher (set before anyone else sees the operator). Its first
    /// element ends the stream without cancelling the other publisher, which may then keep its
    /// subscriber for long: so at that point the subscriber is told to let go of the operator, and
    /// the downstream is not kept alive. Weak: the other publisher keeps it alive, and the operator
    /// must not, while it holds the operator.
    @usableFromInline
    weak var termination: Termination?

    @inlinable
    init() {}

    /// Upstream sent its subscription: returns how this thread enters the turn to hand the operator
    /// downstream, or `nil` to cancel the subscription.
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription, thread: ThreadIdentity) -> TurnEntry? {
        guard upstreamStatus.accept(subscription) else { return nil }
        return turn.enter(by: thread)
    }

    /// Upstream sent an element: returns how this thread enters the turn to pass it on, or `nil`
    /// when the stream has ended.
    @inlinable
    mutating func receiveUpstreamValue(thread: ThreadIdentity) -> TurnEntry? {
        guard upstreamStatus.isSubscribed else { return nil }
        return turn.enter(by: thread)
    }

    /// Upstream completed: returns whether the stream was live (the completion then goes on) and the
    /// other publisher's subscription, to cancel.
    @inlinable
    mutating func upstreamDidComplete() -> (wasLive: Bool, other: (any Subscription)?) {
        let wasLive = upstreamStatus.isSubscribed
        upstreamStatus = .terminal
        return (wasLive, otherStatus.terminate())
    }

    /// The other publisher sent its first element: returns the upstream subscription to cancel and
    /// the termination subscriber to detach, unless the stream had already ended.
    @inlinable
    mutating func otherDidSend() -> (upstream: (any Subscription)?, termination: Termination?)? {
        guard otherStatus.isSubscribed else { return nil }
        otherStatus = .terminal
        defer { termination = nil }
        return (upstreamStatus.terminate(), termination)
    }

    /// Downstream cancelled: returns upstream's and the other publisher's subscriptions to cancel.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, other: (any Subscription)?) {
        downstreamCancelled = true
        return (upstreamStatus.terminate(), otherStatus.terminate())
    }
}
