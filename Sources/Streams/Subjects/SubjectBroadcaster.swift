/// The machinery both subjects share: the subscriber list, completion, upstream subscriptions and
/// serialized delivery.
///
/// Delivery is serialized: one thread at a time delivers, and a value sent meanwhile, from another
/// thread or re-entrantly from a subscriber, is queued and delivered by that thread once the current
/// value has reached every subscriber. So every subscriber sees values in the order they were sent, a
/// subscriber is never called concurrently, and no lock is held while calling out.
@usableFromInline
final class SubjectBroadcaster<Output, Failure: Error> {
    /// A delivery waiting for the thread that is delivering.
    @usableFromInline
    enum PendingDelivery {
        case value(Output, SubjectSubscriberList<Output, Failure>)
        case completion(Subscribers.Completion<Failure>, SubjectSubscriberList<Output, Failure>)
        case currentValue(SubjectConduit<Output, Failure>)
    }

    @usableFromInline
    let lock = Lock()

    /// Whether this is a current-value subject's broadcaster.
    @usableFromInline
    let keepsCurrentValue: Bool

    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subscribers = SubjectSubscriberList<Output, Failure>()

    /// Guarded by `lock`; set once by the first completion sent.
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?

    /// Guarded by `lock`: whether a thread is delivering.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false

    /// Guarded by `lock`: deliveries queued behind the one in progress, oldest at `pendingStart`.
    @usableFromInline
    @exclusivity(unchecked)
    var pending: [PendingDelivery] = []

    @usableFromInline
    @exclusivity(unchecked)
    var pendingStart = 0

    /// Guarded by `lock`: the current value of a current-value subject.
    @usableFromInline
    @exclusivity(unchecked)
    var currentValue: Output?

    /// Guarded by `lock`: subscriptions received through `send(subscription:)`.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamSubscriptions: [any Subscription] = []

    /// Creates the broadcaster of a passthrough subject.
    @inlinable
    init() {
        keepsCurrentValue = false
    }

    /// Creates the broadcaster of a current-value subject.
    @inlinable
    init(currentValue: Output) {
        self.currentValue = currentValue
        keepsCurrentValue = true
    }

    deinit {
        for subscription in upstreamSubscriptions { subscription.cancel() }
    }

    // MARK: Subscribing

    /// Attaches a subscriber: it gets a conduit, or, after completion, an empty subscription and the
    /// completion.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduitTo(broadcaster: self, downstream: subscriber)
        let finished: Subscribers.Completion<Failure>? = lock.withLock {
            if let completion { return completion }
            subscribers.append(conduit)
            return nil
        }
        if let completion = finished {
            conduit.cancel()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        } else {
            subscriber.receive(subscription: conduit)
        }
    }

    /// Forgets a cancelled subscriber.
    @inlinable
    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        lock.withLock { subscribers.remove(conduit) }
    }

    /// The number of attached subscribers.
    @usableFromInline
    var subscriberCount: Int {
        lock.withLock { subscribers.count }
    }

    // MARK: Sending

    /// Stores an upstream subscription and asks it for everything it has.
    @inlinable
    func send(subscription: any Subscription) {
        let accepted = lock.withLock {
            guard completion == nil else { return false }
            upstreamSubscriptions.append(subscription)
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    /// Sends a value to every subscriber with demand; a current-value subject also stores it.
    @inlinable
    func send(_ value: Output) {
        let recipients: SubjectSubscriberList<Output, Failure>? = lock.withLock {
            guard completion == nil else { return nil }
            if keepsCurrentValue { currentValue = value }
            if isDelivering {
                if !subscribers.isEmpty { pending.append(.value(value, subscribers)) }
                return nil
            }
            guard !subscribers.isEmpty else { return nil }
            isDelivering = true
            return subscribers
        }
        guard let recipients else { return }
        deliver(value, to: recipients)
        deliverPending()
    }

    /// Sends the completion to every subscriber, once; later values and completions are ignored.
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let recipients: SubjectSubscriberList<Output, Failure>? = lock.withLock {
            guard self.completion == nil else { return nil }
            self.completion = completion
            let recipients = subscribers
            subscribers = SubjectSubscriberList()
            if isDelivering {
                pending.append(.completion(completion, recipients))
                return nil
            }
            isDelivering = true
            return recipients
        }
        guard let recipients else { return }
        deliver(completion, to: recipients)
        deliverPending()
    }

    /// Queues the delivery of the current value to a subscriber that is owed it.
    @inlinable
    func sendCurrentValue(to conduit: SubjectConduit<Output, Failure>) {
        let deliverNow = lock.withLock {
            pending.append(.currentValue(conduit))
            if isDelivering { return false }
            isDelivering = true
            return true
        }
        if deliverNow { deliverPending() }
    }

    // MARK: Delivering

    @inlinable
    func deliver(_ value: Output, to recipients: SubjectSubscriberList<Output, Failure>) {
        recipients.forEach { conduit in
            if let more = conduit.deliverValue(conduit, value, false), more > 0 {
                conduit.addDemand(more)
            }
        }
    }

    @inlinable
    func deliver(_ completion: Subscribers.Completion<Failure>, to recipients: SubjectSubscriberList<Output, Failure>) {
        recipients.forEach { conduit in
            conduit.deliverCompletion(conduit, completion)
        }
    }

    /// Delivers queued deliveries until none is left, then gives up the delivering role.
    @inlinable
    func deliverPending() {
        while true {
            let next: (PendingDelivery, Output?)? = lock.withLock {
                guard pendingStart < pending.count else {
                    if pendingStart > 0 {
                        pending.removeAll(keepingCapacity: pending.capacity <= 64)
                        pendingStart = 0
                    }
                    isDelivering = false
                    return nil
                }
                let delivery = pending[pendingStart]
                pendingStart += 1
                if case .currentValue(let conduit) = delivery, subscribers.contains(conduit) {
                    return (delivery, currentValue)
                }
                return (delivery, nil)
            }
            guard let (delivery, current) = next else { return }
            switch delivery {
            case .value(let value, let recipients):
                deliver(value, to: recipients)
            case .completion(let completion, let recipients):
                deliver(completion, to: recipients)
            case .currentValue(let conduit):
                guard let current else { continue }
                if let more = conduit.deliverValue(conduit, current, true), more > 0 {
                    conduit.addDemand(more)
                }
            }
        }
    }
}
