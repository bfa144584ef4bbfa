/// An operator's subscription that also subscribes to a second, "other" publisher, such as
/// `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`; an ``OtherSubscriber`` forwards the other
/// publisher's events to it.
@usableFromInline
protocol OtherPublisherReceiver: AnyObject {
    /// The other publisher's output.
    associatedtype OtherOutput

    /// The other publisher's failure.
    associatedtype OtherFailure: Error

    /// The identity the subscriber to the other publisher shares.
    var combineIdentifier: CombineIdentifier { get }

    /// The other publisher's subscription has arrived.
    func otherReceive(subscription: any Subscription)

    /// The other publisher has sent an element; returns the further demand.
    func otherReceive(_ input: OtherOutput) -> Subscribers.Demand

    /// The other publisher has completed.
    func otherReceive(completion: Subscribers.Completion<OtherFailure>)
}

/// An ``OtherPublisherReceiver`` whose subscriber to the other publisher has a description of its own.
@usableFromInline
protocol NamedOtherPublisherReceiver: OtherPublisherReceiver {
    /// The description of the subscriber to the other publisher, as Combine prints it.
    static var otherSubscriberDescription: String { get }
}

/// The subscriber to an operator's other publisher; it shares the operator's subscription's identity.
///
/// It holds the operator's subscription until nothing the other publisher reports matters any more
/// (the operator then calls ``detach()``); after that it cancels any subscription and ignores
/// everything, as the operator's subscription would. The operator keeps it weakly: the other publisher
/// keeps it alive while it holds the operator's subscription.
@usableFromInline
final class OtherSubscriber<Receiver: OtherPublisherReceiver>: Subscriber {
    @usableFromInline
    typealias Input = Receiver.OtherOutput

    @usableFromInline
    typealias Failure = Receiver.OtherFailure

    @usableFromInline
    let combineIdentifier: CombineIdentifier

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    var receiver: Receiver?

    @inlinable
    init(receiver: Receiver) {
        combineIdentifier = receiver.combineIdentifier
        self.receiver = receiver
    }

    /// Lets go of the operator's subscription.
    @usableFromInline
    func detach() {
        let receiver = lock.withLock { self.receiver.take() }
        withExtendedLifetime(receiver) {}
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        if let receiver = lock.withLock({ receiver }) {
            receiver.otherReceive(subscription: subscription)
        } else {
            subscription.cancel()
        }
    }

    @usableFromInline
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { receiver }?.otherReceive(input) ?? .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { receiver }?.otherReceive(completion: completion)
    }
}

extension OtherSubscriber: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Receiver: NamedOtherPublisherReceiver {
    @usableFromInline
    var description: String { Receiver.otherSubscriberDescription }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
