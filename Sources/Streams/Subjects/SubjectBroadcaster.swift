/// The machinery both subjects share: the subscriber list, completion, upstream subscriptions and
/// serialized delivery.
///
/// Delivery follows the rules of ``DeliveryTurn`` (see `DeliveryTurn.swift`): one thread at a time
/// holds the subject's turn and delivers, with no lock held while it calls out; a send from another
/// thread waits for the turn and delivers its own value before it returns; a send from inside a
/// delivery, on the delivering thread, is queued and delivered by that thread right after the
/// current value has reached every subscriber. So every subscriber sees values in the order they
/// were sent, a subscriber is never called concurrently, and what is queued is bounded by the
/// threads and subscribers, never by the rate of sending.
///
/// The thread holding the turn owns the subscriber list: subscribers that attach or cancel meanwhile
/// wait in ``arrivals`` or in the queue, and the holder applies those changes between deliveries. So
/// delivery walks the list itself, without copying it or retaining its subscribers.
@usableFromInline
final class SubjectBroadcaster<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    /// Work the thread holding the turn queued for itself from inside a delivery (and cancellations
    /// from any thread), done in order before it gives the turn up.
    @usableFromInline
    enum PendingWork {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case currentValue(Conduit)
        case update((inout Output) -> Void)
        case attach(Conduit)
        case detach(Conduit)
    }

    @usableFromInline
    let lock = Lock()

    /// Which publisher this broadcaster serves; its subscriptions describe themselves after it.
    @usableFromInline
    let kind: SubjectKind

    /// Set once, with `lock` held: whether any subscriber of a passthrough subject has requested
    /// values. Until then the subject asks its upstream subscriptions for nothing. Subscriptions read
    /// it without the lock to skip telling the subject again.
    @usableFromInline
    let hasDownstreamDemand = AtomicFlag()

    /// Whether this is a current-value subject's broadcaster.
    @inlinable
    var keepsCurrentValue: Bool { currentValue != nil }

    /// Changed with `lock` held, and only while no thread holds the turn or by the thread holding it;
    /// read with `lock` held, or without it by the thread holding the turn.
    @usableFromInline
    @exclusivity(unchecked)
    var subscribers = SubjectSubscriberList<Output, Failure>()

    /// Guarded by `lock`: subscribers that attached from other threads while the turn was held. The
    /// holder adds them to `subscribers` between deliveries and before giving the turn up, so they
    /// are empty whenever the turn is free.
    @usableFromInline
    @exclusivity(unchecked)
    var arrivals = SubjectSubscriberList<Output, Failure>()

    /// Guarded by `lock`; set once by the first completion delivered.
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?

    /// Guarded by `lock`: whether `completion` is set. A Boolean, so that code running unspecialized
    /// checks it without looking up the completion's type.
    @usableFromInline
    @exclusivity(unchecked)
    var isFinished = false

    /// Guarded by `lock`: which thread delivers, and who waits for it.
    @usableFromInline
    @exclusivity(unchecked)
    var turn = DeliveryTurn()

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

    /// Creates the broadcaster of a passthrough subject, or of an observable object's publisher.
    @inlinable
    init(kind: SubjectKind = .passthrough) {
        self.kind = kind
        currentValue = nil
    }

    /// Creates the broadcaster of a current-value subject, or of a `@Published` property.
    @inlinable
    init(currentValue: Output, kind: SubjectKind = .currentValue) {
        let storage = UnsafeMutablePointer<Output>.allocate(capacity: 1)
        storage.initialize(to: currentValue)
        self.currentValue = storage
        self.kind = kind
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
            if !turn.isHeld {
                subscribers.append(conduit)
            } else if turn.holder == .current {
                enqueueLocked(.attach(conduit))
            } else {
                arrivals.append(conduit)
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

    /// Forgets a cancelled subscriber and lets go of it, at once or, while a thread holds the turn,
    /// when that thread reaches the cancellation.
    @inlinable
    func remove(_ conduit: Conduit) {
        let released = lock.withLock { () -> Unmanaged<AnyObject>? in
            if arrivals.remove(conduit) { return conduit.takeDownstream() }
            if turn.isHeld {
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
        lock.withLock { subscribers.count + arrivals.count }
    }

    // MARK: Sending

    /// What a call does once it has looked at the state.
    @usableFromInline
    enum SendOutcome {
        /// Nothing more: the work was done, queued or dropped.
        case done
        /// The caller took the turn: deliver, then give the turn up.
        case deliver
        /// Another thread holds the turn: wait for it.
        case wait
    }

    /// Stores an upstream subscription, to cancel when the subject goes away, and asks it for
    /// everything it has: at once for a current-value subject, and for a passthrough subject once any
    /// of its subscribers has requested values.
    @inlinable
    func send(subscription: any Subscription) {
        let requests = lock.withLock {
            upstreamSubscriptions.append(subscription)
            return kind != .passthrough || hasDownstreamDemand.value
        }
        if requests { subscription.request(.unlimited) }
    }

    /// Notes that a subscriber of a passthrough subject requested values: the first time, asks the
    /// upstream subscriptions stored so far for everything they have.
    @usableFromInline
    func acknowledgeDownstreamDemand() {
        let upstream = lock.withLock { () -> [any Subscription] in
            guard !hasDownstreamDemand.value else { return [] }
            hasDownstreamDemand.set(true)
            return upstreamSubscriptions
        }
        for subscription in upstream { subscription.request(.unlimited) }
    }

    /// Sends a value to every subscriber with demand; a current-value subject also stores it, and
    /// with `storingAfterCompletion` stores it even after the completion, when nothing is sent.
    @inlinable
    func send(_ value: Output, storingAfterCompletion: Bool = false) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock { () -> SendOutcome in
            guard !isFinished else {
                if storingAfterCompletion, let currentValue { currentValue.pointee = value }
                return .done
            }
            if !turn.isHeld {
                if let currentValue { currentValue.pointee = value }
                guard !subscribers.isEmpty else { return .done }
                turn.take(by: thread)
                return .deliver
            }
            guard turn.holder == thread else { return .wait }
            if let currentValue { currentValue.pointee = value }
            enqueueLocked(.value(value))
            return .done
        }
        switch outcome {
        case .done:
            return
        case .deliver:
            deliver(value)
            finishTurn()
        case .wait:
            sendAfterWaiting(value, thread: thread, storingAfterCompletion: storingAfterCompletion)
        }
    }

    /// Waits for the turn, then delivers a value sent from another thread than the one delivering.
    @inlinable
    @inline(never)
    func sendAfterWaiting(_ value: Output, thread: ThreadIdentity, storingAfterCompletion: Bool) {
        waitForTurn(thread: thread)
        let delivers = lock.withLock { () -> Bool in
            guard !isFinished else {
                if storingAfterCompletion, let currentValue { currentValue.pointee = value }
                return false
            }
            if let currentValue { currentValue.pointee = value }
            return !subscribers.isEmpty
        }
        if delivers { deliver(value) }
        finishTurn()
    }

    /// Sends the completion to every subscriber, once; later values and completions are ignored.
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock { () -> SendOutcome in
            guard !isFinished else { return .done }
            let outcome = claimTurnLocked(by: thread, orQueue: .completion(completion))
            if case .done = outcome { markFinishedLocked(completion) }
            return outcome
        }
        switch outcome {
        case .done:
            return
        case .deliver:
            finish(completion)
        case .wait:
            waitForTurn(thread: thread)
            finish(completion)
        }
    }

    /// Delivers the completion, unless one was already sent, and gives the turn up. The caller holds
    /// the turn.
    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let recipients: SubjectSubscriberList<Output, Failure>? = lock.withLock {
            guard !isFinished else { return nil }
            markFinishedLocked(completion)
            return takeSubscribersLocked()
        }
        if let recipients { deliver(completion, to: recipients) }
        finishTurn()
    }

    /// Delivers the current value to a subscriber that is owed it, now or after the delivery in
    /// progress.
    @inlinable
    func sendCurrentValue(to conduit: Conduit) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock { () -> SendOutcome in
            let outcome = claimTurnLocked(by: thread, orQueue: .currentValue(conduit))
            if case .deliver = outcome { enqueueLocked(.currentValue(conduit)) }
            return outcome
        }
        switch outcome {
        case .done:
            return
        case .deliver:
            deliverQueuedWork()
        case .wait:
            waitForTurn(thread: thread)
            lock.withLock { enqueueLocked(.currentValue(conduit)) }
            deliverQueuedWork()
        }
    }

    /// Replaces the current value with `change` applied to it and sends the result, as one step:
    /// no other value is sent between reading and sending. From inside a delivery, on the delivering
    /// thread, the update is queued like a value.
    @usableFromInline
    func update(_ change: @escaping (inout Output) -> Void) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock { () -> SendOutcome in
            guard !isFinished else { return .done }
            return claimTurnLocked(by: thread, orQueue: .update(change))
        }
        switch outcome {
        case .done:
            return
        case .deliver:
            apply(change)
        case .wait:
            waitForTurn(thread: thread)
            apply(change)
        }
        finishTurn()
    }

    /// Applies an update and delivers the new value; the caller holds the turn.
    @usableFromInline
    func apply(_ change: (inout Output) -> Void) {
        guard let currentValue else { return }
        guard var state = lock.withLock({ isFinished ? nil : currentValue.pointee }) else { return }
        change(&state)
        let delivers = lock.withLock { () -> Bool in
            currentValue.pointee = state
            return !subscribers.isEmpty
        }
        if delivers { deliver(state) }
    }

    // MARK: The turn

    /// Waits until the calling thread, which does not hold the turn, holds it; then adds the
    /// subscribers that arrived meanwhile.
    @inlinable
    @inline(never)
    func waitForTurn(thread: ThreadIdentity) {
        awaitTurn(lock: lock) { turn.attempt(by: thread, mayPark: $0) }
        lock.withLock { admitArrivalsLocked() }
    }

    /// Takes the turn if it is free (`.deliver`); queues `work` if the calling thread holds it
    /// (`.done`); otherwise reports that another thread holds it (`.wait`). Call with `lock` held.
    @inlinable
    func claimTurnLocked(by thread: ThreadIdentity, orQueue work: @autoclosure () -> PendingWork) -> SendOutcome {
        if !turn.isHeld {
            turn.take(by: thread)
            return .deliver
        }
        guard turn.holder == thread else { return .wait }
        enqueueLocked(work())
        return .done
    }

    /// Moves subscribers that attached from other threads into the list. Call with `lock` held, as
    /// the thread holding the turn, between deliveries.
    @inlinable
    func admitArrivalsLocked() {
        guard !arrivals.isEmpty else { return }
        let admitted = arrivals
        arrivals = SubjectSubscriberList()
        admitted.forEach { subscribers.append($0) }
    }

    /// Records the completion. Call with `lock` held.
    @inlinable
    func markFinishedLocked(_ completion: Subscribers.Completion<Failure>) {
        self.completion = completion
        isFinished = true
    }

    /// Queues work for the thread holding the turn. Call with `lock` held.
    @inlinable
    func enqueueLocked(_ work: PendingWork) {
        pending.append(work)
        pendingEnd += 1
    }

    /// Empties the subscriber list, with the subscribers that arrived meanwhile, and returns what it
    /// held. Call with `lock` held.
    @inlinable
    func takeSubscribersLocked() -> SubjectSubscriberList<Output, Failure> {
        admitArrivalsLocked()
        let recipients = subscribers
        subscribers = SubjectSubscriberList()
        return recipients
    }
}
