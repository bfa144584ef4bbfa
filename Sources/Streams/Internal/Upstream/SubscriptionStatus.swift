/// Where an operator's inner subscriber stands with its upstream.
///
/// The operator keeps it under its lock; callers read it, update it and release the lock before they
/// call anyone else.
@usableFromInline
enum SubscriptionStatus {
    /// No subscription has arrived yet.
    case awaitingSubscription
    /// The upstream subscription is live.
    case subscribed(any Subscription)
    /// The stream ended: completed, failed or cancelled. Nothing more is delivered.
    case terminal

    /// The live subscription, if there is one.
    @inlinable
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether a subscription is live; unlike `subscription`, this copies nothing.
    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = self { return true }
        return false
    }

    /// Whether no subscription has arrived yet; this copies nothing.
    @inlinable
    var isAwaitingSubscription: Bool {
        if case .awaitingSubscription = self { return true }
        return false
    }

    /// Whether the stream has ended.
    @inlinable
    var isTerminal: Bool {
        if case .terminal = self { return true }
        return false
    }

    /// Takes the upstream's subscription if none has arrived yet and the stream has not ended. When it
    /// returns false, the caller cancels `subscription`.
    @inlinable
    mutating func accept(_ subscription: any Subscription) -> Bool {
        guard isAwaitingSubscription else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// Records the upstream's completion: true if the subscription was live (the stream has now
    /// ended), false, changing nothing, if it was not.
    @inlinable
    mutating func complete() -> Bool {
        guard isSubscribed else { return false }
        self = .terminal
        return true
    }

    /// Ends the stream, returning the live subscription, if there was one, for the caller to cancel.
    @inlinable
    mutating func terminate() -> (any Subscription)? {
        var previous = SubscriptionStatus.terminal
        swap(&previous, &self)
        switch consume previous {
        case .subscribed(let subscription): return subscription
        case .awaitingSubscription, .terminal: return nil
        }
    }
}
