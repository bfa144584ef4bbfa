/// The machinery both subjects share: a thin class around one ``SubjectState`` (the turn and the work
/// queued behind it, completion, upstream subscriptions), which decides, the subscriber list, and the
/// serialized delivery that carries the state's decisions out.
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
/// wait in the state's `arrivals` or in its queue, and the holder applies those changes between
/// deliveries. So delivery walks the list itself, without copying it or retaining its subscribers;
/// and so the list is kept beside the state, not in it, since other threads change the state
/// meanwhile.
@usableFromInline
final class SubjectBroadcaster<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    @usableFromInline
    typealias State = SubjectState<Output, Failure>

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

    /// Changed with `lock` held, and only while no thread holds the turn or by the thread holding it;
    /// read with `lock` held, or without it by the thread holding the turn.
    @usableFromInline
    @exclusivity(unchecked)
    var subscribers = SubjectSubscriberList<Output, Failure>()

    /// The current value of a current-value subject, `nil` for a passthrough subject; the value it
    /// points to is guarded by `lock`. This object allocates and frees it; `state` uses it.
    @usableFromInline
    let currentValue: UnsafeMutablePointer<Output>?

    /// Guarded by `lock`. Its size depends on `Failure`, so it comes last: the fields that delivery
    /// reads then sit at the same place for every subject.
    @usableFromInline
    @exclusivity(unchecked)
    var state: State

    /// Whether this is a current-value subject's broadcaster.
    @inlinable
    var keepsCurrentValue: Bool { currentValue != nil }

    /// Creates the broadcaster of a passthrough subject, or of an observable object's publisher.
    @inlinable
    init(kind: SubjectKind = .passthrough) {
        self.kind = kind
        currentValue = nil
        state = State(currentValue: nil)
    }

    /// Creates the broadcaster of a current-value subject, or of a `@Published` property.
    @inlinable
    init(currentValue: Output, kind: SubjectKind = .currentValue) {
        let storage = UnsafeMutablePointer<Output>.allocate(capacity: 1)
        storage.initialize(to: currentValue)
        self.currentValue = storage
        state = State(currentValue: storage)
        self.kind = kind
    }

    deinit {
        for subscription in state.upstreamSubscriptions { subscription.cancel() }
        if let currentValue {
            currentValue.deinitialize(count: 1)
            currentValue.deallocate()
        }
    }

    // MARK: Subscribing

    /// Attaches a subscriber: it gets a conduit, or, after completion, an empty subscription and the
    /// completion. The conduit keeps `subject` alive until the subscription ends, as Combine's
    /// subjects' subscriptions keep theirs. A completion sent from another thread before the
    /// subscriber has returned from `receive(subscription:)` reaches it only then (one sent from
    /// inside that call, on this thread, goes down nested in it, as in Combine).
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S, keepingAlive subject: AnyObject? = nil)
    where S.Input == Output, S.Failure == Failure {
        let conduit: Conduit
        if let sink = Subscribers.Sink<Output, Failure>.matching(subscriber) {
            conduit = SubjectSinkConduit(broadcaster: self, subject: subject, sink: sink)
        } else {
            conduit = SubjectConduitTo(broadcaster: self, subject: subject, downstream: subscriber)
        }
        let attachment = lock.withLock { () -> State.Attachment in
            let attachment = state.attach(conduit, thread: .current)
            if case .now = attachment { subscribers.append(conduit) }
            return attachment
        }
        // Held to the end: otherwise the optimizer hands the reference to the list and then retains
        // and releases it around the subscriber's call.
        withExtendedLifetime(conduit) {
            if case .finished(let completion) = attachment {
                conduit.cancel()
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: completion)
            } else {
                subscriber.receive(subscription: conduit)
                conduit.subscriptionDelivered()
            }
        }
    }

    /// Forgets a cancelled subscriber and lets go of it, at once or, while a thread holds the turn,
    /// when that thread reaches the cancellation.
    @inlinable
    func remove(_ conduit: Conduit) {
        let released = lock.withLock { () -> Unmanaged<AnyObject>? in
            switch state.remove(conduit) {
            case .now:
                subscribers.remove(conduit)
                return conduit.takeDownstream()
            case .fromArrivals:
                return conduit.takeDownstream()
            case .later:
                return nil
            }
        }
        released?.release()
    }

    /// The number of attached subscribers.
    @usableFromInline
    var subscriberCount: Int {
        lock.withLock { subscribers.count + state.arrivals.count }
    }

    // MARK: Sending

    /// Stores an upstream subscription, to cancel when the subject goes away, and asks it for
    /// everything it has: at once for a current-value subject, and for a passthrough subject once any
    /// of its subscribers has requested values.
    @inlinable
    func send(subscription: any Subscription) {
        let requestsAtOnce = kind != .passthrough
        let requests = lock.withLock {
            state.add(upstream: subscription, requestsAtOnce: requestsAtOnce || hasDownstreamDemand.value)
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
            return state.upstreamSubscriptions
        }
        for subscription in upstream { subscription.request(.unlimited) }
    }

    /// Sends a value to every subscriber with demand; a current-value subject also stores it, and
    /// with `storingAfterCompletion` stores it even after the completion, when nothing is sent.
    @inlinable
    func send(_ value: Output, storingAfterCompletion: Bool = false) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock {
            state.send(
                value, thread: thread, storingAfterCompletion: storingAfterCompletion, subscribers: subscribers)
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
        let delivers = lock.withLock {
            state.sendAfterWaiting(value, storingAfterCompletion: storingAfterCompletion, subscribers: subscribers)
        }
        if delivers { deliver(value) }
        finishTurn()
    }

    /// Sends the completion to every subscriber, once; later values and completions are ignored.
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let thread = ThreadIdentity.current
        switch lock.withLock({ state.send(completion: completion, thread: thread) }) {
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
        let recipients = lock.withLock { state.finish(completion) ? takeSubscribers() : nil }
        if let recipients { deliver(completion, to: recipients) }
        finishTurn()
    }

    /// Delivers the current value to a subscriber that is owed it, now or after the delivery in
    /// progress.
    @inlinable
    func sendCurrentValue(to conduit: Conduit) {
        let thread = ThreadIdentity.current
        let outcome = lock.withLock { () -> SubjectSendOutcome in
            let outcome = state.claimTurn(by: thread, orQueue: .currentValue(conduit))
            if case .deliver = outcome { state.enqueue(.currentValue(conduit)) }
            return outcome
        }
        switch outcome {
        case .done:
            return
        case .deliver:
            deliverQueuedWork()
        case .wait:
            waitForTurn(thread: thread)
            lock.withLock { state.enqueue(.currentValue(conduit)) }
            deliverQueuedWork()
        }
    }

    /// Replaces the current value with `change` applied to it and sends the result, as one step:
    /// no other value is sent between reading and sending. From inside a delivery, on the delivering
    /// thread, the change is applied at once to the current value (which a value sent from there has
    /// already replaced) and its result is queued like a value sent from there.
    @usableFromInline
    func update(_ change: (inout Output) -> Void) {
        let thread = ThreadIdentity.current
        switch lock.withLock({ state.beginUpdate(thread: thread) }) {
        case .done:
            return
        case .deliver:
            apply(change)
        case .wait:
            waitForTurn(thread: thread)
            apply(change)
        case .reentrant:
            guard var value = lock.withLock({ state.valueToUpdate }) else { return }
            change(&value)
            send(value)
            return
        }
        finishTurn()
    }

    /// Runs `body` holding the turn, so that no value is being delivered meanwhile: it waits for a
    /// thread that holds the turn to finish its deliveries. From inside a delivery, on the delivering
    /// thread, `body` runs at once and is told so (`true`). After the completion it runs at once,
    /// without the turn.
    @usableFromInline
    func withTurn<Result>(_ body: (_ insideDelivery: Bool) -> Result) -> Result {
        let thread = ThreadIdentity.current
        switch lock.withLock({ state.beginUpdate(thread: thread) }) {
        case .done:
            return body(false)
        case .reentrant:
            return body(true)
        case .deliver:
            break
        case .wait:
            waitForTurn(thread: thread)
        }
        defer { finishTurn() }
        return body(false)
    }

    /// Applies an update and delivers the new value; the caller holds the turn.
    @usableFromInline
    func apply(_ change: (inout Output) -> Void) {
        guard var value = lock.withLock({ state.valueToUpdate }) else { return }
        change(&value)
        let delivers = lock.withLock { () -> Bool in
            state.store(updated: value)
            return !subscribers.isEmpty
        }
        if delivers { deliver(value) }
    }

    // MARK: The turn

    /// Waits until the calling thread, which does not hold the turn, holds it; then adds the
    /// subscribers that arrived meanwhile.
    @inlinable
    @inline(never)
    func waitForTurn(thread: ThreadIdentity) {
        awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
        lock.withLock { admitArrivals() }
    }

    /// Adds the subscribers that attached from other threads to the list. Call with `lock` held, as
    /// the thread holding the turn, between deliveries.
    @inlinable
    func admitArrivals() {
        state.takeArrivals()?.forEach { subscribers.append($0) }
    }

    /// Empties the subscriber list, with the subscribers that arrived meanwhile, and returns what it
    /// held. Call with `lock` held, as the thread holding the turn.
    @inlinable
    func takeSubscribers() -> SubjectSubscriberList<Output, Failure> {
        admitArrivals()
        let recipients = subscribers
        subscribers = SubjectSubscriberList()
        return recipients
    }
}
