/// The state of a throttle (`Publishers.Throttle.Inner`), kept under its lock. Each method decides
/// what an event does and returns what must then be done outside the lock; the calling thread's
/// identity is passed in.
///
/// As in Combine, an element that arrives while the downstream has demand is scheduled to go out at
/// the later of now and one interval after the last emission; until it goes out, later elements
/// replace it (`latest`) or are dropped. The upstream's completion goes out with the scheduled
/// element, or on its own.
@usableFromInline
struct ThrottleState<Downstream: Subscriber, Time>: PacedValueState {
    @usableFromInline
    typealias Event = ScheduledEvent<Downstream.Input, Downstream.Failure>

    @usableFromInline
    var downstream: Downstream?

    /// Stays `subscribed` after the upstream completes, until the completion goes out, so that a
    /// cancel in between still reaches upstream, as in Combine.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    @usableFromInline
    var demand = Subscribers.Demand.none

    /// The element scheduled to go out.
    @usableFromInline
    var pendingInput: Downstream.Input?

    /// The upstream's completion, scheduled to go out.
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    /// When the last element went out.
    @usableFromInline
    var lastEmissionTime: Time?

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

    /// Upstream sent `input`: returns whether the stream is live (the caller then reads the clock, as
    /// Combine does) and, when the element is to be scheduled, `.some` of the last emission's time.
    @inlinable
    mutating func receive(_ input: Downstream.Input, latest: Bool) -> (live: Bool, scheduling: Time??) {
        guard status.isSubscribed, pendingCompletion == nil else { return (false, nil) }
        guard demand > 0 else { return (true, nil) }
        if pendingInput != nil {
            if latest { pendingInput = input }
            return (true, nil)
        }
        demand -= 1
        pendingInput = input
        // Stays as it is until the element is emitted: nothing else is scheduled meanwhile.
        return (true, .some(lastEmissionTime))
    }

    /// Upstream completed: returns `nil` when ignored, else whether the completion must be scheduled
    /// on its own (an element already scheduled takes it along when it goes out).
    @inlinable
    mutating func receive(completion: Subscribers.Completion<Downstream.Failure>) -> Bool? {
        guard status.isSubscribed, pendingCompletion == nil else { return nil }
        pendingCompletion = completion
        return pendingInput == nil
    }

    /// Whether emitting now reads the clock: as in Combine, only when an element goes out without
    /// the completion.
    @inlinable
    var emissionReadsClock: Bool { status.isSubscribed && pendingInput != nil && pendingCompletion == nil }

    /// The scheduled emission is due: queues the waiting element, the completion, or both. `now` is
    /// the time read for ``emissionReadsClock``.
    @inlinable
    mutating func emit(now: Time?, thread: ThreadIdentity) -> PacedDelivery<Event>.Duty {
        guard status.isSubscribed else { return .none }
        let input = pendingInput.take()
        let completion = pendingCompletion.take()
        var duty = PacedDelivery<Event>.Duty.none
        if let input {
            if completion == nil, let now { lastEmissionTime = now }
            duty = Swift.max(duty, delivery.enqueue(.value(input), thread: thread))
        }
        if let completion {
            status = .terminal
            duty = Swift.max(duty, delivery.enqueue(.completion(completion), thread: thread))
        }
        return duty
    }

    /// Downstream asked for `more`.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard status.isSubscribed, pendingCompletion == nil else { return }
        demand += more
    }

    /// Downstream cancelled: returns the upstream subscription to cancel.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        pendingInput = nil
        pendingCompletion = nil
        delivery.discard()
        return subscription
    }
}
