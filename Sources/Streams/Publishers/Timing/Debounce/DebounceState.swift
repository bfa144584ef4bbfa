/// The state of a debounce (`Publishers.Debounce.Inner`), kept under its lock. Each method decides
/// what an event does and returns what must then be done outside the lock; the calling thread's
/// identity is passed in.
///
/// As in Combine, each element from upstream replaces the latest one and starts a timer of its own;
/// when a timer runs out and no newer element came meanwhile, the latest element goes out if the
/// downstream has demand (it is dropped otherwise). The upstream's completion goes out on the
/// scheduler, after what was queued before it.
@usableFromInline
struct DebounceState<Downstream: Subscriber>: PacedValueState {
    @usableFromInline
    typealias Event = ScheduledEvent<Downstream.Input, Downstream.Failure>

    @usableFromInline
    var downstream: Downstream?

    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    @usableFromInline
    var demand = Subscribers.Demand.none

    /// The latest element from upstream.
    @usableFromInline
    var currentValue: Downstream.Input?

    /// Counts elements: each one's timer publishes it only if no newer one came.
    @usableFromInline
    var generation: UInt64 = 0

    /// The generation whose timer is waiting to publish `currentValue`, if any.
    @usableFromInline
    var armedGeneration: UInt64?

    /// The waiting timer, once the scheduler has returned it.
    @usableFromInline
    var timer: (any Cancellable)?

    @usableFromInline
    var delivery = PacedDelivery<Event>()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Upstream sent its subscription: returns the downstream to hand the operator to, or `nil` to
    /// cancel the subscription.
    @inlinable
    mutating func receive(subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription = status else { return nil }
        status = .subscribed(subscription)
        return downstream
    }

    /// Upstream sent `input`: returns its generation, for the timer to start, and the timer it
    /// replaces, to cancel; `nil` when the element is ignored.
    @inlinable
    mutating func receive(_ input: Downstream.Input) -> (generation: UInt64, replaced: (any Cancellable)?)? {
        guard status.isSubscribed else { return nil }
        generation &+= 1
        currentValue = input
        armedGeneration = generation
        return (generation, timer.take())
    }

    /// The scheduler returned the timer of `generation`: returns whether to keep it (otherwise a
    /// newer element or the end came meanwhile, and it is cancelled).
    @inlinable
    mutating func keep(_ timer: any Cancellable, of generation: UInt64) -> Bool {
        guard armedGeneration == generation else { return false }
        self.timer = timer
        return true
    }

    /// Upstream completed: returns whether the completion is to be scheduled, and the timer to
    /// cancel.
    @inlinable
    mutating func receiveCompletion() -> (accepted: Bool, timer: (any Cancellable)?) {
        guard status.isSubscribed else { return (false, nil) }
        status = .terminal
        armedGeneration = nil
        return (true, timer.take())
    }

    /// The timer of `generation` ran out: queues the latest element if no newer one came and the
    /// downstream wants it. Returns the timer to cancel and what the caller must do.
    ///
    /// The element is queued in the same critical section that takes it: otherwise, on a scheduler
    /// that runs actions on several threads, a newer element could be taken and queued by its own
    /// timer in between, and go out first.
    @inlinable
    mutating func due(
        _ generation: UInt64, thread: ThreadIdentity
    ) -> (timer: (any Cancellable)?, duty: PacedDelivery<Event>.Duty) {
        guard status.isSubscribed, armedGeneration == generation, let value = currentValue else {
            return (nil, .none)
        }
        armedGeneration = nil
        let timer = self.timer.take()
        guard demand > 0 else { return (timer, .none) }
        demand -= 1
        return (timer, delivery.enqueue(.value(value), thread: thread))
    }

    /// The scheduled completion is due: queues it, unless the subscription was cancelled.
    @inlinable
    mutating func completionDue(
        _ completion: Subscribers.Completion<Downstream.Failure>, thread: ThreadIdentity
    ) -> PacedDelivery<Event>.Duty {
        guard downstream != nil else { return .none }
        return delivery.enqueue(.completion(completion), thread: thread)
    }

    /// The latest element goes with the completion.
    @inlinable
    mutating func releaseAtCompletion() {
        currentValue = nil
    }

    /// Downstream asked for `more`.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard status.isSubscribed else { return }
        demand += more
    }

    /// Downstream cancelled: returns the upstream subscription and the timer to cancel.
    @inlinable
    mutating func cancel() -> (subscription: (any Subscription)?, timer: (any Cancellable)?) {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        currentValue = nil
        armedGeneration = nil
        delivery.discard()
        return (subscription, timer.take())
    }
}
