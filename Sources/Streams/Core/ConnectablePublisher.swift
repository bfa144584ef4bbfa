/// A publisher that provides an explicit means of connecting and cancelling publication.
///
/// A connectable publisher produces no elements until ``connect()`` is called, so several subscribers
/// can attach before the first value flows.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance with which
    /// to cancel publishing.
    ///
    /// - Returns: A ``Cancellable`` instance that you use to cancel publishing.
    func connect() -> any Cancellable
}
