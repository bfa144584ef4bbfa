import Streams
import Synchronization

/// A publisher that remembers who subscribed to it, as seen from outside: the subscriber's
/// `combineIdentifier`, the name of its type, and the subscriber itself if it is also a subscription.
/// It hands out a ``FlowSubscription`` at once, or, if made with `sendsSubscription: false`, only
/// when the test calls ``send(subscription:)``.
final class IdentifyingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: `lock` guards every mutable property.

    private struct Latest {
        let identifier: CombineIdentifier
        let type: String
        let subscriber: AnySubscriber<Output, Failure>
        let asSubscription: (any Subscription)?
    }

    private let lock = Mutex<Void>(())
    private let sendsSubscription: Bool
    private var latest: Latest?

    init(sendsSubscription: Bool = true) {
        self.sendsSubscription = sendsSubscription
    }

    /// The latest subscriber's `combineIdentifier`.
    var identifier: CombineIdentifier? { lock.withLock { _ in latest?.identifier } }

    /// The name of the latest subscriber's type.
    var subscriberType: String? { lock.withLock { _ in latest?.type } }

    /// The latest subscriber, if it is also a subscription (an operator's inner subscriber often is).
    var subscriberAsSubscription: (any Subscription)? { lock.withLock { _ in latest?.asSubscription } }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { _ in
            latest = Latest(
                identifier: subscriber.combineIdentifier, type: "\(type(of: subscriber))",
                subscriber: AnySubscriber(subscriber), asSubscription: subscriber as? any Subscription)
        }
        if sendsSubscription { subscriber.receive(subscription: FlowSubscription()) }
    }

    func send(subscription: any Subscription) {
        lock.withLock { _ in latest?.subscriber }?.receive(subscription: subscription)
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { _ in latest?.subscriber }?.receive(completion: completion)
    }
}
