import Streams
import StreamsTesting
import Synchronization
import Testing

/// A publisher that keeps the subscriber it is given and sends it nothing, so that a test can reach
/// the operator's inner subscriber, which is also the operator's subscription, before any
/// subscription has arrived.
final class HeldSubscriberUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var subscriber: AnySubscriber<Output, Failure>?
    private var held: (any Subscription)?

    /// The operator's inner subscriber seen as a subscription, if it is one.
    var inner: (any Subscription)? {
        lock.withLock { _ in held }
    }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { _ in
            self.subscriber = AnySubscriber(subscriber)
            held = subscriber as? any Subscription
        }
    }

    private var current: AnySubscriber<Output, Failure> {
        guard let subscriber = lock.withLock({ _ in self.subscriber }) else {
            preconditionFailure("Nothing subscribed to the test upstream")
        }
        return subscriber
    }

    /// Hands the subscriber a subscription.
    func send(subscription: any Subscription) {
        current.receive(subscription: subscription)
    }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        current.receive(value)
    }

    /// Sends a completion.
    func send(completion: Subscribers.Completion<Failure>) {
        current.receive(completion: completion)
    }
}

/// Checks the details every reduce-like operator shares with Combine beyond
/// ``checkReduceLikeContract(name:sourceLocation:_:)``: a cancel that reaches the operator before
/// upstream's subscription changes nothing (the subscription, when it comes, is taken and asked for
/// everything, and the stream still completes), and the mirror has Combine's children.
///
/// - Parameters:
///   - mirrorLabels: The labels of the mirror's children, in order.
///   - makeOperator: Applies the operator to the given upstream.
func checkReduceLikeCombineDetails<P: Publisher>(
    mirrorLabels: [String] = ["downstream", "result", "initial", "status"],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ makeOperator: (AnyPublisher<Int, SelectionTestError>) -> P
) {
    // A cancel before the subscription arrives is ignored.
    do {
        let upstream = HeldSubscriberUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        guard let inner = upstream.inner else {
            Issue.record("The operator's subscriber must also be its subscription", sourceLocation: sourceLocation)
            return
        }
        inner.cancel()
        let subscription = SelectionSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
        #expect(subscriber.subscriptionCount == 1, sourceLocation: sourceLocation)
        upstream.send(completion: .finished)
        if case .finished? = subscriber.completion {
        } else {
            Issue.record("Expected the stream to finish", sourceLocation: sourceLocation)
        }
    }
    // The mirror's children carry Combine's labels.
    do {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        guard let subscription = subscriber.subscription else {
            Issue.record("Expected a subscription", sourceLocation: sourceLocation)
            return
        }
        let labels = Mirror(reflecting: subscription).children.map { $0.label ?? "" }
        #expect(labels == mirrorLabels, sourceLocation: sourceLocation)
    }
}
