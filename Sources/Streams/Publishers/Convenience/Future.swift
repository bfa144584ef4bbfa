/// A publisher that eventually produces a single value and then finishes or fails.
///
/// A future starts its work as soon as you create it: the initializer calls your closure at once and
/// hands it a ``Promise``. Call the promise, from any thread and at any time, to settle the future;
/// only the first call counts. Every subscriber, whether it subscribed before or after the future
/// settled, receives the result: a value followed by `.finished` once it has requested at least one
/// value, or a failure straight away.
///
/// ```swift
/// func generateAsyncRandomNumber() -> Future<Int, Never> {
///     Future { promise in
///         DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
///             promise(.success(Int.random(in: 1...10)))
///         }
///     }
/// }
///
/// let cancellable = generateAsyncRandomNumber()
///     .sink { print("Got random number \($0).") }
/// // Prints, a second later: Got random number 9.
/// ```
///
/// To postpone the work until someone subscribes, and run it again for each subscriber, wrap the
/// future in a ``Deferred`` publisher.
public final class Future<Output, Failure: Error>: Publisher {
    /// A type that represents a closure to invoke in the future, when an element or error is
    /// available.
    ///
    /// The promise closure receives one parameter: a `Result` that contains either a single element
    /// published by a ``Future``, or an error.
    public typealias Promise = (Result<Output, Failure>) -> Void

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`: the outcome, once the promise has been called.
    @usableFromInline
    var result: Result<Output, Failure>?

    /// Guarded by `lock`: the subscriptions waiting for the outcome, in the order they subscribed.
    /// Emptied when the promise is called.
    @usableFromInline
    var waiting: [any FutureConduit<Output, Failure>] = []

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    ///
    /// The closure runs at once, before the initializer returns.
    ///
    /// - Parameter attemptToFulfill: A closure that receives the ``Promise`` and calls it, now or
    ///   later, with the element to publish or the error to fail with.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill(promise)
    }

    /// Settles the future, if it has not been settled yet, and delivers the result to the waiting
    /// subscriptions.
    @usableFromInline
    func promise(_ result: Result<Output, Failure>) {
        let subscriptions = lock.withLock { () -> [any FutureConduit<Output, Failure>]? in
            guard self.result == nil else { return nil }
            self.result = result
            defer { waiting = [] }
            return waiting
        }
        guard let subscriptions else { return }
        for subscription in subscriptions {
            subscription.fulfill(result)
        }
    }

    /// The result, if the promise has been called.
    @usableFromInline
    var settledResult: Result<Output, Failure>? {
        lock.withLock { result }
    }

    /// Gives the subscriber a subscription that delivers the result once it is known and demanded.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let subscription = FutureSubscription(parent: self, downstream: subscriber)
        subscriber.receive(subscription: subscription)
        // Lock order: the future's lock, then the subscription's; never the reverse.
        let settled = lock.withLock { () -> Result<Output, Failure>? in
            if let result { return result }
            if subscription.isActive { waiting.append(subscription) }
            return nil
        }
        if let settled { subscription.fulfill(settled) }
    }

    /// Forgets a subscription that was cancelled before the future settled.
    @usableFromInline
    func remove(_ subscription: any FutureConduit<Output, Failure>) {
        let removed = lock.withLock { () -> [any FutureConduit<Output, Failure>] in
            guard let index = waiting.firstIndex(where: { $0 === subscription }) else { return [] }
            return [waiting.remove(at: index)]
        }
        withExtendedLifetime(removed) {}
    }
}

// @unchecked: the mutable state (`result`, `waiting`) is guarded by `lock`.
extension Future: @unchecked Sendable where Output: Sendable {}

/// A subscription to a ``Future``, as the future sees it: something to hand the result to.
@usableFromInline
protocol FutureConduit<Output, Failure>: AnyObject {
    /// The future's output.
    associatedtype Output
    /// The future's failure.
    associatedtype Failure: Error

    /// Delivers the result if the subscriber is still there and, for a value, has asked for one.
    func fulfill(_ result: Result<Output, Failure>)
}

/// The subscription of a ``Future``: it delivers the result once the future has settled and, for a
/// value, once the subscriber has requested one.
@usableFromInline
final class FutureSubscription<Downstream: Subscriber>: FutureConduit, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once the result is delivered or the subscription cancelled.
    @usableFromInline
    var downstream: Downstream?

    /// Guarded by `lock`: whether the subscriber has requested anything.
    @usableFromInline
    var hasAnyDemand = false

    /// Guarded by `lock`; released once the subscription ends.
    @usableFromInline
    var parent: Future<Output, Failure>?

    @inlinable
    init(parent: Future<Output, Failure>, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    /// Whether the subscription still has a subscriber to deliver to.
    @inlinable
    var isActive: Bool {
        lock.withLock { downstream != nil }
    }

    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        deliver(result, releasingParent: true)
    }

    /// Delivers the result if the subscription is live and, for a value, has demand. As in Combine,
    /// the subscription keeps its future (its mirror's `parent`) until the result has been delivered,
    /// and keeps it afterwards when the result was already settled when demand arrived.
    @inlinable
    func deliver(_ result: Result<Output, Failure>, releasingParent: Bool) {
        let taken = lock.withLock { () -> Downstream? in
            guard downstream != nil else { return nil }
            if case .success = result, !hasAnyDemand { return nil }
            return downstream.take()
        }
        guard let downstream = taken else { return }
        switch result {
        case .success(let output):
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
        guard releasingParent else { return }
        let parent = lock.withLock { self.parent.take() }
        withExtendedLifetime(parent) {}
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let parent = lock.withLock { () -> Future<Output, Failure>? in
            guard downstream != nil else { return nil }
            hasAnyDemand = true
            return self.parent
        }
        guard let result = parent?.settledResult else { return }
        deliver(result, releasingParent: false)
    }

    @inlinable
    func cancel() {
        let released = lock.withLock { () -> (Downstream?, Future<Output, Failure>?) in
            (downstream.take(), parent.take())
        }
        released.1?.remove(self)
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    var description: String { "Future" }

    @usableFromInline
    var customMirror: Mirror {
        let (parent, downstream, hasAnyDemand) = lock.withLock { (self.parent, self.downstream, self.hasAnyDemand) }
        return Mirror(
            self,
            children: [
                "parent": parent as Any,
                "downstream": downstream as Any,
                "hasAnyDemand": hasAnyDemand,
                "subject": parent as Any,
            ])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
