/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it has demand, then every value sent after
/// it. A subscriber that misses a value for lack of demand receives the then-current value when it next
/// requests. Setting ``value`` sends the new value. After a completion, values sent are ignored, while
/// setting ``value`` still stores the new value without sending it.
///
/// Any thread may send, subscribe, request and cancel; delivery is serialized as for
/// ``PassthroughSubject``.
///
/// ```swift
/// let subject = CurrentValueSubject<Int, Never>(1)
/// let cancellable = subject.sink { print($0) }
/// subject.value = 2
/// // Prints:
/// // 1
/// // 2
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline
    let broadcaster: SubjectBroadcaster<Output, Failure>

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// After a completion, setting the value still stores it, but sends nothing.
    @inlinable
    public var value: Output {
        get {
            broadcaster.lock.withLock { broadcaster.currentValue.unsafelyUnwrapped.pointee }
        }
        set {
            broadcaster.send(newValue, storingAfterCompletion: true)
        }
    }

    /// Creates a current value subject with the given initial value.
    ///
    /// - Parameter value: The initial value to publish.
    @inlinable
    public init(_ value: Output) {
        broadcaster = SubjectBroadcaster(currentValue: value)
    }

    /// Attaches a subscriber; it receives the current value once it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        broadcaster.attach(subscriber, keepingAlive: self)
    }

    /// Stores the value as the current value and sends it to every subscriber with demand.
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

    /// Stores an upstream subscription and requests an unlimited number of values from it.
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
extension CurrentValueSubject: @unchecked Sendable where Output: Sendable {}
