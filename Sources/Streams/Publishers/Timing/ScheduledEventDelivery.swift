/// The inner of an operator that hands each upstream event downstream from an action of its own on
/// its scheduler, as Combine does (`receive(on:)`, `timeout`): what delivering needs, so that both
/// share ``release()`` and ``deliverReleased()``.
///
/// Each event waits in `pending`; the action scheduled for it only counts it as `released`. Whoever
/// finds nobody `delivering` takes the delivery and hands the released events downstream one at a
/// time, oldest first, with the lock released during each call; an action that runs meanwhile — on
/// another thread, or from inside a delivery — leaves its event to that deliverer. So events go out in
/// order, never concurrently, and each no sooner than its own action.
///
/// Conformers are final classes; the members below are their own stored properties, and all but
/// `lock` and `downstream` are guarded by `lock`. `delivering` starts `true`, and the conformer calls
/// ``subscriptionDelivered()`` once the downstream returns from `receive(subscription:)`, so that
/// nothing reaches the downstream while it is there.
@usableFromInline
protocol ScheduledEventDelivering: AnyObject {
    associatedtype Downstream: Subscriber

    var lock: Lock { get }

    var downstream: Downstream { get }

    /// Stays `subscribed` until a completion goes out or the subscription ends.
    var status: SubscriptionStatus { get set }

    /// Events not yet delivered, oldest first.
    var pending: FIFOQueue<ScheduledEvent<Downstream.Input, Downstream.Failure>> { get set }

    /// How many of the `pending` events their action has released.
    var released: Int { get set }

    /// A thread is calling the downstream, or the downstream is still in `receive(subscription:)`.
    var delivering: Bool { get set }

    /// A completion of the operator's own that goes out before anything else, if there is one
    /// (`timeout`'s).
    var ownCompletion: Subscribers.Completion<Downstream.Failure>? { get set }

    /// Schedules an action on the operator's scheduler that calls ``deliverReleased()``.
    func scheduleDelivery()
}

/// What a delivery loop does next.
@usableFromInline
enum ScheduledDeliveryStep<Input, Failure: Error> {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
    case stop
}

extension ScheduledEventDelivering {
    /// The action scheduled for one event: lets it go out, now or right after the delivery under
    /// way.
    @inlinable
    func release() {
        let deliverNow = lock.withLock { () -> Bool in
            guard status.isSubscribed else { return false }
            released += 1
            guard !delivering else { return false }
            delivering = true
            return true
        }
        if deliverNow { deliverReleased() }
    }

    /// The downstream has returned from `receive(subscription:)`: gives the delivery up, or, if
    /// events were released meanwhile, delivers them from a new action, so that they still reach the
    /// downstream on the scheduler.
    @inlinable
    func subscriptionDelivered() {
        let waiting = lock.withLock { () -> Bool in
            guard ownCompletion != nil || (status.isSubscribed && released > 0) else {
                delivering = false
                return false
            }
            return true
        }
        if waiting { scheduleDelivery() }
    }

    /// Hands the released events downstream one at a time, then gives the delivery up. Called by the
    /// thread holding it. The demand the downstream answers with goes straight to upstream.
    @inlinable
    func deliverReleased() {
        typealias Step = ScheduledDeliveryStep<Downstream.Input, Downstream.Failure>
        while true {
            let step = lock.withLock { () -> Step in
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
            switch step {
            case .stop:
                return
            case .completion(let completion):
                downstream.receive(completion: completion)
            case .value(let value):
                let demand = downstream.receive(value)
                if demand != .none, let subscription = lock.withLock({ status.subscription }) {
                    subscription.request(demand)
                }
            }
        }
    }
}
