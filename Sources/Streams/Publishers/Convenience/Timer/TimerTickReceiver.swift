/// What a timer publisher (``Timer/TimerPublisher``, ``SchedulerTimer``) asks of each subscription
/// it holds: each subscription keeps its own subscriber's demand.
@usableFromInline
protocol TimerTickReceiver<Tick>: AnyObject {
    /// What the timer sends at each firing.
    associatedtype Tick

    /// Delivers a tick if the subscriber has demand for it; a tick without demand is dropped.
    func send(_ tick: Tick)

    /// Lets go of the subscriber, as a cancelled connection does; nothing more is delivered.
    func detach()
}

/// What the two timer publishers (``Timer/TimerPublisher``, ``SchedulerTimer``) share, and what
/// their subscriptions ask of them: the list of the subscriptions each holds, guarded by its lock.
@usableFromInline
protocol TimerTickSource<Tick>: AnyObject {
    /// What the timer sends at each firing.
    associatedtype Tick

    /// The attached subscriptions, in the order they attached; read and written only inside
    /// ``withLock(_:)``.
    var subscriptions: [any TimerTickReceiver<Tick>] { get set }

    /// Runs `body` with the publisher's lock held.
    func withLock<Result>(_ body: () -> Result) -> Result
}

extension TimerTickSource {
    /// Adds the subscription to the list, then hands it to its subscriber.
    @inlinable
    func attach<Downstream: Subscriber>(
        _ subscription: some Subscription & TimerTickReceiver<Tick>,
        to subscriber: Downstream
    ) {
        withLock { subscriptions.append(subscription) }
        subscriber.receive(subscription: subscription)
    }

    /// Sends a tick to every subscription; each delivers it if its subscriber has demand.
    @inlinable
    func fire(_ tick: Tick) {
        let subscriptions = withLock { self.subscriptions }
        for subscription in subscriptions {
            subscription.send(tick)
        }
    }

    /// Detaches one subscription.
    @inlinable
    func remove(_ subscription: any TimerTickReceiver<Tick>) {
        withLock {
            subscriptions.removeAll { $0 === subscription }
        }
    }

    /// Empties the list, and returns the subscriptions it held, for the caller to detach once it
    /// has let go of the lock. Call it inside ``withLock(_:)``.
    @inlinable
    func takeSubscriptions() -> [any TimerTickReceiver<Tick>] {
        defer { subscriptions = [] }
        return subscriptions
    }
}
