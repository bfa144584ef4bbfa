/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject broadcasts values to one or more subscribers. ``PassthroughSubject`` forwards what it is
/// sent; ``CurrentValueSubject`` also keeps the latest value.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscriber.
    ///
    /// - Parameter value: The value to send.
    func send(_ value: Output)

    /// Sends a completion signal to the subscriber.
    ///
    /// - Parameter completion: A `Completion` instance which indicates whether publishing has finished
    ///   normally or failed with an error.
    func send(completion: Subscribers.Completion<Failure>)

    /// Sends a subscription to the subscriber.
    ///
    /// This call lets the subject ask an upstream publisher for values when it is used as a subscriber.
    ///
    /// - Parameter subscription: The subscription instance through which the subscriber can request
    ///   elements.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscriber.
    @inlinable
    public func send() {
        send(())
    }
}
