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

    /// Whether the stream has ended.
    @inlinable
    var isTerminal: Bool {
        if case .terminal = self { return true }
        return false
    }
}
