import Streams
import Synchronization

/// An upstream that holds on to its subscriber without giving it a subscription, so a test can send
/// values, completions and requests before one arrives, as a misbehaving publisher would, and then
/// hand over a subscription of its choosing.
final class EarlyEventUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: `held` is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var held: (subscriber: AnySubscriber<Output, Failure>, object: Any)?

    init() {}

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { _ in held = (AnySubscriber(subscriber), subscriber) }
    }

    private var current: AnySubscriber<Output, Failure> {
        guard let held = lock.withLock({ _ in held }) else {
            preconditionFailure("EarlyEventUpstream has no subscriber")
        }
        return held.subscriber
    }

    /// The operator's inner subscriber seen as the subscription it will hand downstream.
    var innerSubscription: (any Subscription)? {
        lock.withLock { _ in held?.object } as? any Subscription
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

    /// Hands the subscriber a subscription.
    func send(subscription: any Subscription) {
        current.receive(subscription: subscription)
    }
}

/// Subscribes a plain subscriber to `makeOperator(upstream)` over an ``EarlyEventUpstream`` and returns
/// the upstream, so a test can send events before any subscription.
func subscribedEarly<P: Publisher>(
    _ makeOperator: (EarlyEventUpstream<Int, Never>) -> P
) -> EarlyEventUpstream<Int, Never> {
    let upstream = EarlyEventUpstream<Int, Never>()
    makeOperator(upstream).subscribe(
        AnySubscriber<P.Output, P.Failure>(
            receiveSubscription: { $0.request(.unlimited) }, receiveValue: { _ in .max(1) },
            receiveCompletion: { _ in }))
    return upstream
}
