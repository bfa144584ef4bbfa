/// A protocol representing the connection of a subscriber to a publisher.
///
/// A subscription asks its publisher for values with ``request(_:)`` and ends the connection with
/// ``Cancellable/cancel()``. Cancelling frees the resources the subscription holds; requesting after
/// that does nothing.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    ///
    /// - Parameter demand: How many more values the subscriber wants; it must be greater than zero.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
    /// The empty subscription: requests and cancellation do nothing.
    ///
    /// Publishers that complete at once, such as ``Empty`` and ``Fail``, hand it to their subscriber.
    public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``.
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    static let shared = EmptySubscription()

    let combineIdentifier = CombineIdentifier()

    private init() {}

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {}

    var description: String { "Empty" }

    var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

    var playgroundDescription: Any { description }
}
