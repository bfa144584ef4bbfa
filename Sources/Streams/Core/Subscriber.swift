/// A protocol that declares a type that can receive input from a publisher.
///
/// A ``Publisher`` calls ``receive(subscription:)`` once, then ``receive(_:)`` for each value the
/// subscriber asked for, then at most once ``receive(completion:)``. The subscriber asks for values by
/// calling ``Subscription/request(_:)`` and by returning a demand from ``receive(_:)``; demand only ever
/// adds up.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of errors this subscriber might receive; use `Never` if it cannot receive errors.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may request items.
    ///
    /// - Parameter subscription: A subscription that represents the connection between publisher and
    ///   subscriber.
    func receive(subscription: any Subscription)

    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// - Parameter input: The published element.
    /// - Returns: How many more elements the subscriber expects to receive, added to its earlier demand.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed publishing, normally or with an error.
    ///
    /// - Parameter completion: A ``Subscribers/Completion`` case indicating how publishing ended.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further requests.
    ///
    /// - Returns: How many more elements the subscriber expects to receive.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for types that serve as subscribers.
public enum Subscribers {}
