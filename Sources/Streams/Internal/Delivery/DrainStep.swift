/// What the thread holding a merging operator's ``DeliveryTurn`` does next, as its `drain` decides
/// with the lock held (``MergeInner``, `flatMap`).
@usableFromInline
enum DrainStep<Input, Failure: Error> {
    /// Deliver a waiting value, then ask its upstream for one more (if given).
    case deliver(Input, (any Subscription)?)
    /// Deliver `.finished`.
    case finish
    /// Deliver the failure.
    case fail(Failure)
    /// Stop: the turn has been given up, to this waiter if one was parked (wake it).
    case stop(TurnWaiter?)
}

/// The loop of a merging operator's `drain`: runs on the thread holding the turn and performs, with
/// no lock held, each step that `next` decides with `lock` held, until a step ends the turn.
///
/// `next` receives the demand downstream returned for the value delivered before (first,
/// `initialDemand`). After delivering a completion, the loop calls `releaseTurn`; a `.stop` step has
/// already given the turn up and only wakes its waiter.
@inlinable
func drainDeliveryTurn<Downstream: Subscriber>(
    to downstream: Downstream,
    adding initialDemand: Subscribers.Demand,
    lock: borrowing Lock,
    releaseTurn: () -> Void,
    next: (Subscribers.Demand) -> DrainStep<Downstream.Input, Downstream.Failure>
) {
    var more = initialDemand
    while true {
        let added = more
        more = .none
        switch lock.withLock({ next(added) }) {
        case .deliver(let value, let source):
            more = downstream.receive(value)
            source?.request(.max(1))
        case .finish:
            downstream.receive(completion: .finished)
            releaseTurn()
            return
        case .fail(let failure):
            downstream.receive(completion: .failure(failure))
            releaseTurn()
            return
        case .stop(let waiter):
            waiter?.unpark()
            return
        }
    }
}
