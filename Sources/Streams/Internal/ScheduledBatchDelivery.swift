/// The inner of an operator that buffers upstream events and hands them downstream in batches from
/// its scheduler (`receive(on:)`): the lock, status and downstream that delivering a batch
/// needs, so that it can share ``deliver(_:)``.
///
/// Conformers are final classes; the members below are their own stored properties, and `status`
/// is guarded by `lock`.
@usableFromInline
protocol ScheduledBatchDelivering: AnyObject {
    associatedtype Downstream: Subscriber

    var lock: Lock { get }

    var status: SubscriptionStatus { get set }

    var downstream: Downstream { get }
}

extension ScheduledBatchDelivering {
    /// Delivers one batch in order, stopping as soon as the subscription is cancelled or the stream
    /// ends. The demand the downstream answers with goes straight to upstream; the lock is never held
    /// while calling out.
    @inlinable
    func deliver(_ batch: ContiguousArray<ScheduledEvent<Downstream.Input, Downstream.Failure>>) {
        for event in batch {
            switch event {
            case .value(let value):
                guard lock.withLock({ status.isSubscribed }) else { return }
                let demand = downstream.receive(value)
                if demand != .none, let subscription = lock.withLock({ status.subscription }) {
                    subscription.request(demand)
                }
            case .completion(let completion):
                let live = lock.withLock { () -> Bool in
                    guard status.isSubscribed else { return false }
                    status = .terminal
                    return true
                }
                guard live else { return }
                downstream.receive(completion: completion)
            }
        }
    }
}
