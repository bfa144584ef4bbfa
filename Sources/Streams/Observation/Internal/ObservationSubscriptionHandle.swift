/// The subscription a subscriber of a shared `publisher(for:)` subscription holds.
///
/// A shared observation (``SharedPropertyObservation``) holds its members strongly, so that handing
/// a value to each of them loads no weak reference. The subscriber holds this handle instead of the
/// subscription itself: it asks and cancels through it, and when it lets go of the handle without
/// cancelling, the subscription ends, as a subscription that observes alone ends when its subscriber
/// lets go of it.
@usableFromInline
final class ObservationSubscriptionHandle<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Downstream.Failure == Never {
    @usableFromInline
    let subscription: ObservationSubscription<Downstream>

    /// Set when the subscription was never shared: releasing the handle then ends nothing.
    @usableFromInline
    let disowned = AtomicFlag()

    @inlinable
    init(_ subscription: ObservationSubscription<Downstream>) {
        self.subscription = subscription
    }

    deinit {
        if !disowned.value { subscription.cancel() }
    }

    /// The subscription did not join a shared observation, and is not handed out through this handle.
    @inlinable
    func disown() {
        disowned.set(true)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        subscription.request(demand)
    }

    @inlinable
    func cancel() {
        subscription.cancel()
    }

    @usableFromInline
    var description: String { subscription.description }

    @usableFromInline
    var customMirror: Mirror { subscription.customMirror }

    @usableFromInline
    var playgroundDescription: Any { subscription.playgroundDescription }
}
