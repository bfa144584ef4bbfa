/// The inner of a time-based operator that reaches its downstream through a ``PacedDelivery``
/// (`debounce`, `throttle`): what its ``drain()`` needs, so that both share it.
///
/// Conformers are final classes; the members below are their own stored properties, and all but
/// `lock` are guarded by `lock`.
@usableFromInline
protocol PacedDownstreamDelivering: PacedDelivering
where PacedEvent == ScheduledEvent<Downstream.Input, Downstream.Failure> {
    associatedtype Downstream: Subscriber

    /// Released once the completion is delivered or the subscription is cancelled.
    var downstream: Downstream? { get set }

    /// What the downstream has asked for and not yet received.
    var demand: Subscribers.Demand { get set }

    /// Lets go of what the operator still holds for later elements, as the completion goes out.
    /// Called with `lock` held.
    func releaseAtCompletion()
}

extension PacedDownstreamDelivering {
    /// Delivers queued events one at a time, with the lock released during each call; the demand
    /// the downstream answers with is added to ``demand``. The caller holds the turn; the drain
    /// gives it up.
    @inlinable
    func drain() {
        typealias Event = ScheduledEvent<Downstream.Input, Downstream.Failure>
        var handedOver: TurnWaiter?
        while let (event, downstream) = lock.withLock({ () -> (Event, Downstream)? in
            // Once cancelled, nothing more goes out: emptying the queue ends the drain.
            guard let downstream = self.downstream else {
                delivery.discard()
                _ = delivery.next(handingOverTo: &handedOver)
                return nil
            }
            guard let event = delivery.next(handingOverTo: &handedOver) else { return nil }
            if case .completion = event {
                self.downstream = nil
                releaseAtCompletion()
                delivery.discard()
            }
            return (event, downstream)
        }) {
            switch event {
            case .value(let value):
                let additional = downstream.receive(value)
                if additional > 0 {
                    lock.withLock { demand += additional }
                }
            case .completion(let completion):
                downstream.receive(completion: completion)
            }
        }
        handedOver?.unpark()
    }
}
