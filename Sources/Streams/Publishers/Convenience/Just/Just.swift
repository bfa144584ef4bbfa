/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// `Just` waits for demand: it delivers its value when the subscriber first requests, then finishes.
///
/// ```swift
/// let cancellable = Just(42).sink { print($0) }
/// // Prints: 42
/// ```
public struct Just<Output>: Publisher {
    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    ///
    /// - Parameter output: The one element that the publisher emits.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives the subscriber a subscription that delivers the value on its first request.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
        subscriber.receive(subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}

extension Just: Sendable where Output: Sendable {}

/// A subscription that delivers one value on the first request, then finishes.
///
/// As Combine's does, it keeps the value for as long as it lives, also after delivering it or being
/// cancelled; the subscriber it lets go of then.
@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once the value is delivered or the subscription cancelled.
    @usableFromInline
    var downstream: Downstream?

    @usableFromInline
    let value: Downstream.Input

    @usableFromInline
    let name: String

    @inlinable
    init(downstream: Downstream, value: Downstream.Input, name: String) {
        self.downstream = downstream
        self.value = value
        self.name = name
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        guard let downstream = lock.withLock({ downstream.take() }) else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        let released = lock.withLock { downstream.take() }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, unlabeledChildren: [value])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
