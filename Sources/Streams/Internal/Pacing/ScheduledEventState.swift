/// The state of an operator that hands each upstream event downstream from an action of its own on
/// its scheduler, as Combine does (`receive(on:)`, `delay`, `timeout`), kept under its lock. Each
/// method decides what an event does and returns what must then be done outside the lock.
///
/// Each event waits in `pending`; the action scheduled for it only counts it as `released`. Whoever
/// finds nobody `delivering` takes the delivery and hands the released events downstream one at a
/// time, oldest first, with the lock released during each call; an action that runs meanwhile — on
/// another thread, or from inside a delivery — leaves its event to that deliverer. So events go out
/// in order, never concurrently, and each no sooner than its own action. (For `delay`, whose actions
/// run at the events' dates, the k-th action to run always finds the k-th event due, even if the
/// scheduler runs two actions out of order or at once.)
///
/// `delivering` starts `true`, and the operator calls ``subscriptionDelivered()`` once the downstream
/// returns from `receive(subscription:)`, so that nothing reaches the downstream while it is there.
/// `Deadline` is what else the operator keeps: `timeout`'s timer, nothing for the others.
@usableFromInline
struct ScheduledEventState<Downstream: Subscriber, Deadline> {
    @usableFromInline
    typealias Event = ScheduledEvent<Downstream.Input, Downstream.Failure>

    /// What the thread delivering does next.
    @usableFromInline
    enum Step {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
        case stop
    }

    /// Stays `subscribed` until a completion goes out or the subscription ends.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// Upstream has completed and its completion is on its way downstream. From then on, as in
    /// Combine, cancelling no longer stops the delivery (`receive(on:)`, `delay`).
    @usableFromInline
    var upstreamCompleted = false

    /// Events not yet delivered, oldest first.
    @usableFromInline
    var pending = FIFOQueue<Event>()

    /// How many of the `pending` events their action has released.
    @usableFromInline
    var released = 0

    /// A thread is calling the downstream, or the downstream is still in `receive(subscription:)`.
    @usableFromInline
    var delivering = true

    /// A completion of the operator's own that goes out before anything else (`timeout`'s).
    @usableFromInline
    var ownCompletion: Subscribers.Completion<Downstream.Failure>?

    /// What else the operator keeps.
    @usableFromInline
    var deadline: Deadline

    @inlinable
    init(deadline: Deadline) {
        self.deadline = deadline
    }

    /// Upstream sent its subscription: returns whether to keep it.
    @inlinable
    mutating func receive(subscription: any Subscription) -> Bool {
        status.accept(subscription)
    }

    /// Holds an upstream event: returns whether to schedule the action that releases it.
    @inlinable
    mutating func enqueue(_ event: Event) -> Bool {
        guard status.isSubscribed, !upstreamCompleted else { return false }
        if case .completion = event { upstreamCompleted = true }
        pending.append(event)
        return true
    }

    /// The action scheduled for one event ran: returns whether the caller takes the delivery and
    /// delivers (otherwise the event waits for the deliverer).
    @inlinable
    mutating func release() -> Bool {
        guard status.isSubscribed else { return false }
        released += 1
        guard !delivering else { return false }
        delivering = true
        return true
    }

    /// The downstream has returned from `receive(subscription:)`: gives the delivery up, or returns
    /// `true` when events were released meanwhile, to be delivered from a new action on the
    /// scheduler.
    @inlinable
    mutating func subscriptionDelivered() -> Bool {
        guard ownCompletion != nil || (status.isSubscribed && released > 0) else {
            delivering = false
            return false
        }
        return true
    }

    /// The next step of the deliverer; `.stop` gives the delivery up.
    @inlinable
    mutating func next() -> Step {
        if let completion = ownCompletion.take() { return .completion(completion) }
        guard status.isSubscribed, released > 0, let event = pending.popFirst() else {
            delivering = false
            released = 0
            pending.shrinkIfEmpty()
            return .stop
        }
        released -= 1
        switch event {
        case .value(let value):
            return .value(value)
        case .completion(let completion):
            status = .terminal
            return .completion(completion)
        }
    }

    /// Where downstream's requests go: upstream, until it has completed.
    @inlinable
    var requestTarget: (any Subscription)? { upstreamCompleted ? nil : status.subscription }

    /// Downstream cancelled: returns the upstream subscription to cancel and the events dropped, to
    /// let go of outside the lock; after the upstream completed, nothing (the delivery goes on).
    @inlinable
    mutating func cancel() -> (subscription: (any Subscription)?, discarded: FIFOQueue<Event>) {
        guard !upstreamCompleted, let subscription = status.subscription else { return (nil, FIFOQueue()) }
        return (subscription, end())
    }

    /// Ends the subscription: returns the events dropped.
    @inlinable
    mutating func end() -> FIFOQueue<Event> {
        status = .terminal
        released = 0
        return pending.removeAll()
    }
}

extension ScheduledEventState where Deadline == Void {
    /// The state of an operator that keeps nothing else.
    @inlinable
    init() {
        self.init(deadline: ())
    }
}

/// The subscription of an operator that delivers each event from an action of its own: a thin class
/// that owns the lock and the one ``ScheduledEventState``, and performs its steps.
@usableFromInline
protocol ScheduledEventDelivering: AnyObject {
    associatedtype Downstream: Subscriber

    associatedtype Deadline

    var lock: Lock { get }

    var downstream: Downstream { get }

    /// Guarded by `lock`.
    var state: ScheduledEventState<Downstream, Deadline> { get set }

    /// Schedules an action on the operator's scheduler that calls ``deliverReleased()``.
    func scheduleDelivery()

    /// Schedules the action that calls ``release()`` for one event just held (`receive(on:)` and
    /// `delay` differ only in when it runs).
    func scheduleRelease()
}

extension ScheduledEventDelivering where Self: Subscription {
    /// Upstream's subscription arrived: hands this subscription downstream, then lets the events
    /// released meanwhile go. A second subscription is cancelled.
    @inlinable
    func accept(_ subscription: any Subscription) {
        guard lock.withLock({ state.receive(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        subscriptionDelivered()
    }

    /// Holds an upstream event and schedules the action that releases it, unless the stream has
    /// ended.
    @inlinable
    func hold(_ event: ScheduledEvent<Downstream.Input, Downstream.Failure>) {
        if lock.withLock({ state.enqueue(event) }) { scheduleRelease() }
    }
}

extension ScheduledEventDelivering
where Self: Subscriber & Subscription, Input == Downstream.Input, Failure == Downstream.Failure {
    /// Accepts upstream's subscription (see ``accept(_:)``).
    @inlinable
    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    /// Holds the value until its release; the demand goes upstream when it is delivered.
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        hold(.value(input))
        return .none
    }

    /// Holds the completion until its release.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        hold(.completion(completion))
    }
}

extension ScheduledEventDelivering {
    /// The action scheduled for one event: lets it go out, now or right after the delivery under
    /// way.
    @inlinable
    func release() {
        if lock.withLock({ state.release() }) { deliverReleased() }
    }

    /// The downstream has returned from `receive(subscription:)`: gives the delivery up, or, if
    /// events were released meanwhile, delivers them from a new action, so that they still reach the
    /// downstream on the scheduler.
    @inlinable
    func subscriptionDelivered() {
        if lock.withLock({ state.subscriptionDelivered() }) { scheduleDelivery() }
    }

    /// Hands the released events downstream one at a time, then gives the delivery up. Called by the
    /// thread holding it. The demand the downstream answers with goes straight to upstream.
    @inlinable
    func deliverReleased() {
        while true {
            switch lock.withLock({ state.next() }) {
            case .stop:
                return
            case .completion(let completion):
                downstream.receive(completion: completion)
            case .value(let value):
                let demand = downstream.receive(value)
                if demand != .none, let subscription = lock.withLock({ state.status.subscription }) {
                    subscription.request(demand)
                }
            }
        }
    }

    /// Downstream's request goes to upstream, until it has completed.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        lock.withLock { state.requestTarget }?.request(demand)
    }

    /// Cancels upstream and lets go of the events not delivered, unless the upstream has completed.
    @inlinable
    func cancelUpstream() {
        let (subscription, discarded) = lock.withLock { state.cancel() }
        // The undelivered values are released here, outside the lock.
        withExtendedLifetime(discarded) {}
        subscription?.cancel()
    }
}
