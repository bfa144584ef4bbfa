/// The subscription of a timer publisher (``Timer/TimerPublisher``, ``SchedulerTimer``): it keeps its
/// subscriber's demand, and delivers the ticks the timer sends it while there is demand.
///
/// Each publisher subscribes through a subclass of its own, `Inner`, which keeps the subscription's
/// type name and adds whatever description the publisher gives its subscriptions.
@usableFromInline
class TimerSubscription<Parent: TimerTickSource, Downstream: Subscriber>: Subscription, TimerTickReceiver
where Downstream.Input == Parent.Tick, Downstream.Failure == Never {
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`: released on cancel or when a connection is cancelled.
    @usableFromInline
    var downstream: Downstream?

    @usableFromInline
    var demand = Subscribers.Demand.none

    @usableFromInline
    weak var parent: Parent?

    @inlinable
    init(parent: Parent, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    @inlinable
    final func send(_ tick: Parent.Tick) {
        let downstream = lock.withLock { () -> Downstream? in
            guard let downstream = self.downstream, demand > 0 else { return nil }
            demand -= 1
            return downstream
        }
        guard let downstream else { return }
        let additional = downstream.receive(tick)
        if additional > 0 {
            lock.withLock {
                if self.downstream != nil { demand += additional }
            }
        }
    }

    @inlinable
    final func detach() {
        lock.withLock { downstream = nil }
    }

    @inlinable
    final func request(_ demand: Subscribers.Demand) {
        lock.withLock {
            if downstream != nil { self.demand += demand }
        }
    }

    @inlinable
    final func cancel() {
        let (wasLive, parent) = lock.withLock { (downstream.take() != nil, self.parent) }
        if wasLive { parent?.remove(self) }
    }
}
