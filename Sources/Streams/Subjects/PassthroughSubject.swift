/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a passthrough subject keeps no value: a subscriber sees only what is
/// sent after it subscribed, and a value sent while a subscriber has no outstanding demand is dropped
/// for that subscriber. After a completion, later values are ignored and new subscribers receive the
/// completion at once.
///
/// Any thread may send, subscribe, request and cancel. Delivery is serialized: a value sent while
/// another is being delivered, from another thread or from inside a subscriber, waits until the
/// earlier value has reached every subscriber, so all subscribers see the same order.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)
/// subject.send(2)
/// // Prints:
/// // 1
/// // 2
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline
    let broadcaster: SubjectBroadcaster<Output, Failure>

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {
        broadcaster = SubjectBroadcaster()
    }

    /// Attaches a subscriber; after completion it receives the completion at once.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        broadcaster.attach(subscriber, keepingAlive: self)
    }

    /// Sends a value to every subscriber that has demand for it.
    ///
    /// - Parameter input: The value to send.
    @inlinable
    public func send(_ input: Output) {
        broadcaster.send(input)
    }

    /// Sends a completion to every subscriber; the subject ignores what is sent after it.
    ///
    /// - Parameter completion: How publishing ended.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        broadcaster.send(completion: completion)
    }

    /// Stores an upstream subscription and requests an unlimited number of values from it, at once if
    /// any subscriber of this subject has requested values, otherwise when the first one does.
    ///
    /// The subject cancels the subscriptions it stored when it is deinitialized.
    ///
    /// - Parameter subscription: The subscription of a publisher this subject subscribed to.
    @inlinable
    public func send(subscription: any Subscription) {
        broadcaster.send(subscription: subscription)
    }
}

// The broadcaster guards all mutable state with its lock; values cross threads, hence the condition.
extension PassthroughSubject: @unchecked Sendable where Output: Sendable {}
