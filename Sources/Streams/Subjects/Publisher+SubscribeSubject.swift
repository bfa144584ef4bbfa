extension Publisher {
    /// Attaches the specified subject to this publisher.
    ///
    /// The subject asks the publisher for an unlimited number of values and sends on whatever it
    /// receives, including the completion. The subject is held weakly: releasing it ends the
    /// connection.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let printer = subject.sink { print($0) }
    /// let connection = [1, 2].publisher.subscribe(subject)
    /// // Prints:
    /// // 1
    /// // 2
    /// ```
    ///
    /// - Parameter subject: The subject to attach to this publisher.
    /// - Returns: A cancellable that ends the connection when cancelled or released.
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where Failure == S.Failure, Output == S.Output {
        let connection = SubjectSubscriber(subject)
        subscribe(connection)
        return AnyCancellable(connection)
    }
}

/// The subscriber that connects a publisher to a subject: it forwards values and the completion to
/// the subject, and the subject's requests to the publisher.
@usableFromInline
final class SubjectSubscriber<Target: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    weak var subject: Target?

    /// Guarded by `lock`.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    @inlinable
    init(_ subject: Target) {
        self.subject = subject
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLock { () -> Bool in
            guard case .awaitingSubscription = status, subject != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let subject = lock.withLock({ subject }) else {
            subscription.cancel()
            return
        }
        subject.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Target.Output) -> Subscribers.Demand {
        lock.withLock { !status.isSubscribed ? nil : subject }?.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Target.Failure>) {
        // As in Combine, a completion before the subscription, or after the end, is ignored.
        let subject = lock.withLock { () -> Target? in
            guard status.complete() else { return nil }
            defer { self.subject = nil }
            return self.subject
        }
        subject?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { status.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            let subscription = status.subscription
            status = .terminal
            subject = nil
            return subscription
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { "Subject" }

    @usableFromInline
    var customMirror: Mirror {
        let (subject, subscription) = lock.withLock { (self.subject, status.subscription) }
        let children: [Mirror.Child] = [
            ("downstreamSubject", subject as Any),
            ("upstreamSubscription", subscription as Any),
            ("subject", subject as Any),
        ]
        return Mirror(self, children: children)
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
