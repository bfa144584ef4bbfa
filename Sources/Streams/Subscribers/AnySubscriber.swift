/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to hide the concrete type of a subscriber, or to build one from closures.
/// It forwards every call to what it wraps and shares its ``combineIdentifier`` and description.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let box: AnySubscriberBase<Input, Failure>

    /// A unique identifier: the wrapped subscriber's, when this wraps one.
    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    ///
    /// - Parameter s: The subscriber to type-erase.
    @inlinable
    public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        box = AnySubscriberBox(s)
        combineIdentifier = s.combineIdentifier
    }

    /// Creates a type-erasing subscriber that forwards to a subject.
    ///
    /// The subject receives a subscription that stands for the first one this subscriber receives,
    /// then every value and the first completion, as with `publisher.subscribe(subject)`: the
    /// subject asks for values as it sees fit. The subject is held weakly; once it is gone, or after a
    /// completion, nothing more is forwarded. The subscriber describes itself as `Subject`.
    ///
    /// - Parameter s: The subject to send to.
    @inlinable
    public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Creates a type-erasing subscriber that executes the provided closures.
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure to execute when the subscriber receives the initial
    ///     subscription from the publisher.
    ///   - receiveValue: A closure to execute when the subscriber receives a value from the publisher;
    ///     it returns the additional demand. Without it the subscriber asks for nothing more.
    ///   - receiveCompletion: A closure to execute when the subscriber receives a completion callback
    ///     from the publisher.
    @inlinable
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = AnySubscriberClosures(
            receiveSubscription: receiveSubscription, receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
        combineIdentifier = CombineIdentifier()
    }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receive(subscription: subscription)
    }

    /// Forwards the value and returns the wrapped subscriber's demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receive(value)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receive(completion: completion)
    }

    /// The wrapped subscriber's description, or `Anonymous AnySubscriber` for one built from closures.
    public var description: String { box.description }

    /// The wrapped subscriber's mirror, or, for one built from closures, an empty mirror of its description.
    public var customMirror: Mirror { box.customMirror }

    /// The wrapped subscriber's playground description, or ``description``.
    public var playgroundDescription: Any { box.playgroundDescription }
}

/// The class the boxes of ``AnySubscriber`` inherit from: its methods are overridden.
@usableFromInline
class AnySubscriberBase<Input, Failure: Error> {
    @inlinable
    init() {}

    @inlinable
    func receive(subscription: any Subscription) {}

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {}

    @usableFromInline
    var description: String { "Anonymous AnySubscriber" }

    @usableFromInline
    var customMirror: Mirror { Mirror(description, children: EmptyCollection()) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

/// Holds a concrete subscriber.
@usableFromInline
final class AnySubscriberBox<Base: Subscriber>: AnySubscriberBase<Base.Input, Base.Failure> {
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    @inlinable
    override func receive(subscription: any Subscription) {
        base.receive(subscription: subscription)
    }

    @inlinable
    override func receive(_ input: Base.Input) -> Subscribers.Demand {
        base.receive(input)
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Base.Failure>) {
        base.receive(completion: completion)
    }

    @usableFromInline
    override var description: String {
        (base as? any CustomStringConvertible)?.description ?? "\(Base.self)"
    }

    @usableFromInline
    override var customMirror: Mirror {
        (base as? any CustomReflectable)?.customMirror ?? Mirror(reflecting: base)
    }

    @usableFromInline
    override var playgroundDescription: Any {
        (base as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
    }
}

/// Holds the closures of a closure-built subscriber.
@usableFromInline
final class AnySubscriberClosures<Input, Failure: Error>: AnySubscriberBase<Input, Failure> {
    @usableFromInline
    let receiveSubscriptionHandler: ((any Subscription) -> Void)?
    @usableFromInline
    let receiveValueHandler: ((Input) -> Subscribers.Demand)?
    @usableFromInline
    let receiveCompletionHandler: ((Subscribers.Completion<Failure>) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveValue: ((Input) -> Subscribers.Demand)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) {
        receiveSubscriptionHandler = receiveSubscription
        receiveValueHandler = receiveValue
        receiveCompletionHandler = receiveCompletion
    }

    @inlinable
    override func receive(subscription: any Subscription) {
        receiveSubscriptionHandler?(subscription)
    }

    @inlinable
    override func receive(_ input: Input) -> Subscribers.Demand {
        receiveValueHandler?(input) ?? .none
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionHandler?(completion)
    }
}
