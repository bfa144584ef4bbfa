import Streams

/// A publisher that passes its upstream through unchanged and names each subscription the upstream
/// makes to a leak probe, as "`name` subscription", so that a test can check it is freed (all but
/// `Subscriptions.empty`, which lives for good, and which a completed subject gives); it runs
/// `onSubscription` once it has passed a subscription on.
struct WatchedPublisher<Upstream: Publisher>: Publisher {
    /// What the upstream publishes.
    typealias Output = Upstream.Output
    /// How the upstream fails.
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let probe: StressLeakProbe
    let name: String
    var onSubscription: @Sendable () -> Void = {}

    /// Subscribes `subscriber` to the upstream through a ``Watcher``.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(Watcher(downstream: subscriber, probe: probe, name: name, onSubscription: onSubscription))
    }

    /// Passes every event through to `downstream`, naming the subscription on its way.
    struct Watcher<Downstream: Subscriber>: Subscriber {
        /// What it passes on.
        typealias Input = Downstream.Input
        /// How the stream it passes on fails.
        typealias Failure = Downstream.Failure

        let downstream: Downstream
        let probe: StressLeakProbe
        let name: String
        let onSubscription: @Sendable () -> Void

        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

        /// Names the subscription to the probe, passes it on, then runs `onSubscription`.
        func receive(subscription: any Subscription) {
            probe.watchSubscription("\(name) subscription", subscription as AnyObject)
            downstream.receive(subscription: subscription)
            onSubscription()
        }

        /// Passes the value on.
        func receive(_ input: Input) -> Subscribers.Demand {
            downstream.receive(input)
        }

        /// Passes the completion on.
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

/// An object that an operator's closures capture, so that a test can check the operator let go of
/// them: it is watched like any other object once the run is over.
final class LifetimeToken: Sendable {}

extension StressLeakProbe {
    /// Expects a subscription to be freed: unless it is `Subscriptions.empty`, which lives for good
    /// (a completed subject gives it), or already gone (`nil`, after a completion that came at once).
    func watchSubscription(_ name: String, _ subscription: AnyObject?) {
        guard let subscription, subscription !== Subscriptions.empty as AnyObject else { return }
        watch(name, object: subscription)
    }
}
