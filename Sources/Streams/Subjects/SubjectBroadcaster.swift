/// The machinery both subjects share: the subscriber list, completion, upstream subscriptions and
/// serialized delivery.
///
/// Delivery is serialized: one thread at a time delivers, and a value sent meanwhile, from another
/// thread or re-entrantly from a subscriber, is queued and delivered by that thread once the current
/// value has reached every subscriber. So every subscriber sees values in the order they were sent, a
/// subscriber is never called concurrently, and no lock is held while calling out.
///
/// The thread that delivers owns the subscriber list while it delivers: subscribers that attach or
/// cancel meanwhile are queued with the values, and the delivering thread applies those changes in
/// turn. So delivery walks the list itself, without copying it or retaining its subscribers.
@usableFromInline
final class SubjectBroadcaster<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    /// Work waiting for the thread that is delivering.
    @usableFromInline
    enum PendingWork {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case currentValue(Conduit)
        case attach(Conduit)
        case detach(Conduit)
    }

    @usableFromInline
    let lock = Lock()

    /// Whether this is a current-value subject's broadcaster.
    @inlinable
    var keepsCurrentValue: Bool { currentValue != nil }

    /// Changed with `lock` held, and only while no thread delivers or by the delivering thread; read
    /// with `lock` held, or without it by the delivering thread.
    @usableFromInline
    @exclusivity(unchecked)
    var subscribers = SubjectSubscriberList<Output, Failure>()

    /// Guarded by `lock`; set once by the first completion sent.
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?

    /// Guarded by `lock`: whether `completion` is set. A Boolean, so that code running unspecialized
    /// checks it without looking up the completion's type.
    @usableFromInline
    @exclusivity(unchecked)
    var isFinished = false

    /// Guarded by `lock`: whether a thread is delivering.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false

    /// Guarded by `lock`: work queued behind the delivery in progress, oldest at `pendingStart`.
    @usableFromInline
    @exclusivity(unchecked)
    var pending: [PendingWork] = []

    @usableFromInline
    @exclusivity(unchecked)
    var pendingStart = 0

    /// Guarded by `lock`: `pending.count`, kept as a plain integer for the same reason as `isFinished`.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingEnd = 0

    /// The current value of a current-value subject, `nil` for a passthrough subject; the value it
    /// points to is guarded by `lock`. It has storage of its own, rather than being an optional
    /// `Output`, so that code running unspecialized reads and writes it without looking up the
    /// optional's type.
    @usableFromInline
    let currentValue: UnsafeMutablePointer<Output>?

    /// Guarded by `lock`: subscriptions received through `send(subscription:)`.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamSubscriptions: [any Subscription] = []

    /// Creates the broadcaster of a passthrough subject.
    @inlinable
    init() {
        currentValue = nil
    }

    /// Creates the broadcaster of a current-value subject.
    @inlinable
    init(currentValue: Output) {
        let storage = UnsafeMutablePointer<Output>.allocate(capacity: 1)
        storage.initialize(to: currentValue)
        self.currentValue = storage
    }

    deinit {
        for subscription in upstreamSubscriptions { subscription.cancel() }
        if let currentValue {
            currentValue.deinitialize(count: 1)
            currentValue.deallocate()
        }
    }

    // MARK: Subscribing

    /// Attaches a subscriber: it gets a conduit, or, after completion, an empty subscription and the
    /// completion.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduitTo(broadcaster: self, downstream: subscriber)
        let finished: Subscribers.Completion<Failure>? = lock.withLock {
            if let completion { return completion }
            if isDelivering {
                enqueueLocked(.attach(conduit))
            } else {
                subscribers.append(conduit)
            }
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

    /// Forgets a cancelled subscriber and lets go of it, at once or, while a thread delivers, when
    /// that thread reaches the cancellation.
    @inlinable
    func remove(_ conduit: Conduit) {
        let released = lock.withLock { () -> Unmanaged<AnyObject>? in
            if isDelivering {
                enqueueLocked(.detach(conduit))
                return nil
            }
            subscribers.remove(conduit)
            return conduit.takeDownstream()
        }
        released?.release()
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
            guard !isFinished else { return false }
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
        let deliversNow = lock.withLock { () -> Bool in
            guard !isFinished else { return false }
            if let currentValue { currentValue.pointee = value }
            if isDelivering {
                enqueueLocked(.value(value))
                return false
            }
            guard !subscribers.isEmpty else { return false }
            isDelivering = true
            return true
        }
        guard deliversNow else { return }
        deliver(value)
        deliverPending()
    }

    /// Sends the completion to every subscriber, once; later values and completions are ignored.
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let recipients: SubjectSubscriberList<Output, Failure>? = lock.withLock {
            guard !isFinished else { return nil }
            self.completion = completion
            isFinished = true
            if isDelivering {
                enqueueLocked(.completion(completion))
                return nil
            }
            isDelivering = true
            return takeSubscribersLocked()
        }
        guard let recipients else { return }
        deliver(completion, to: recipients)
        deliverPending()
    }

    /// Queues the delivery of the current value to a subscriber that is owed it.
    @inlinable
    func sendCurrentValue(to conduit: Conduit) {
        let deliversNow = lock.withLock {
            enqueueLocked(.currentValue(conduit))
            if isDelivering { return false }
            isDelivering = true
            return true
        }
        if deliversNow { deliverPending() }
    }

    // MARK: Delivering

    /// Queues work for the delivering thread. Call with `lock` held.
    @inlinable
    func enqueueLocked(_ work: PendingWork) {
        pending.append(work)
        pendingEnd += 1
    }

    /// Empties the subscriber list and returns what it held. Call with `lock` held.
    @inlinable
    func takeSubscribersLocked() -> SubjectSubscriberList<Output, Failure> {
        let recipients = subscribers
        subscribers = SubjectSubscriberList()
        return recipients
    }

    /// Delivers a value to every subscriber in the list. Only the delivering thread calls it: nothing
    /// changes the list meanwhile, so it is read in place and its conduits are not retained.
    @inlinable
    func deliver(_ value: Output) {
        if let conduit = subscribers.onlyConduit {
            Self.deliver(value, through: conduit)
            return
        }
        guard case .many(let slots, _) = subscribers.storage else { return }
        slots.withUnsafeBufferPointer { slots in
            for slot in slots.indices {
                guard let conduit = SubjectSubscriberList.conduit(in: slots, at: slot) else { continue }
                Self.deliver(value, through: conduit)
            }
        }
    }

    @inlinable
    static func deliver(_ value: Output, through conduit: Unmanaged<Conduit>) {
        conduit._withUnsafeGuaranteedRef { conduit in
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

    /// Does the queued work until none is left, then gives up the delivering role.
    @inlinable
    func deliverPending() {
        // Most deliveries find nothing queued: give up the role without handling queued work.
        let finished = lock.withLock { () -> Bool in
            guard pendingStart == pendingEnd else { return false }
            isDelivering = false
            return true
        }
        if finished { return }
        deliverQueuedWork()
    }

    /// Does the queued work until none is left, then gives up the delivering role.
    @inlinable
    @inline(never)
    func deliverQueuedWork() {
        while true {
            let next: (PendingWork, Output?)? = lock.withLock {
                guard pendingStart < pendingEnd else {
                    if pendingStart > 0 {
                        pending.removeAll(keepingCapacity: pending.capacity <= 64)
                        pendingStart = 0
                        pendingEnd = 0
                    }
                    isDelivering = false
                    return nil
                }
                let work = pending[pendingStart]
                pendingStart += 1
                if case .currentValue(let conduit) = work, subscribers.contains(conduit) {
                    return (work, currentValue?.pointee)
                }
                return (work, nil)
            }
            guard let (work, current) = next else { return }
            switch work {
            case .value(let value):
                deliver(value)
            case .completion(let completion):
                let recipients = lock.withLock { takeSubscribersLocked() }
                deliver(completion, to: recipients)
            case .currentValue(let conduit):
                guard let current else { continue }
                if let more = conduit.deliverValue(conduit, current, true), more > 0 {
                    conduit.addDemand(more)
                }
            case .attach(let conduit):
                lock.withLock { subscribers.append(conduit) }
            case .detach(let conduit):
                let released = lock.withLock { () -> Unmanaged<AnyObject>? in
                    subscribers.remove(conduit)
                    return conduit.takeDownstream()
                }
                released?.release()
            }
        }
    }
}
