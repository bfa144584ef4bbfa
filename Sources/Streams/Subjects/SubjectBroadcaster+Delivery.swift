/// How the thread holding a subject's turn delivers: values to the subscriber list, read in place,
/// and the work queued behind the delivery in progress.
extension SubjectBroadcaster {
    /// Delivers a value to every subscriber in the list. Only the thread holding the turn calls it:
    /// nothing changes the list meanwhile, so it is read in place and its conduits are not retained.
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

    /// Does the queued work, if any, then gives the turn up.
    @inlinable
    func finishTurn() {
        // Most deliveries find nothing queued and nobody waiting: give the turn up at once.
        if lock.withLock({ state.releaseIfIdle() }) { return }
        deliverQueuedWork()
    }

    /// Does the queued work until none is left, then gives the turn up, waking the thread that has
    /// waited longest if one is parked.
    ///
    /// Subscribers that arrived meanwhile join the list before each delivery and before the turn is
    /// given up, not before the holder lets go of a cancelled subscriber: so what a subscriber that
    /// joins and cancels while the turn is held queues for the holder is bounded by the list it saw
    /// at the last delivery, however fast other threads subscribe and cancel, and the holder's work
    /// ends.
    @inlinable
    @inline(never)
    func deliverQueuedWork() {
        while true {
            let step = lock.withLock { () -> State.Step in
                if state.nextWorkAdmitsArrivals { admitArrivals() }
                return state.next(subscribers: subscribers)
            }
            switch step {
            case .handOver(let waiter):
                waiter?.unpark()
                return
            case .work(.value(let value), _):
                deliver(value)
            case .work(.completion(let completion), _):
                let recipients = lock.withLock { takeSubscribers() }
                deliver(completion, to: recipients)
            case .work(.currentValue(let conduit), let current):
                guard let current else { continue }
                if let more = conduit.deliverValue(conduit, current, true), more > 0 {
                    conduit.addDemand(more)
                }
            case .work(.attach(let conduit), _):
                lock.withLock { subscribers.append(conduit) }
            case .work(.detach(let conduit), _):
                let released = lock.withLock { () -> Unmanaged<AnyObject>? in
                    subscribers.remove(conduit)
                    return conduit.takeDownstream()
                }
                released?.release()
            }
        }
    }
}
