/// Something a paced operator hands its downstream: a value (or array) or the completion.
@usableFromInline
protocol PacedEvent {
    /// Whether this is the upstream's completion, the last event.
    var isCompletion: Bool { get }
}

extension ScheduledEvent: PacedEvent {
    @inlinable
    var isCompletion: Bool {
        if case .completion = self { return true }
        return false
    }
}

/// The state of an operator that reaches its downstream through a ``PacedDelivery`` (`debounce`,
/// `throttle`, `collect(.byTime)`): what the drain they share needs of it.
@usableFromInline
protocol PacedState {
    /// The operator's subscriber.
    associatedtype Downstream: Subscriber

    /// What the operator hands its downstream.
    associatedtype Event: PacedEvent

    /// Released once the completion is delivered or the subscription is cancelled.
    var downstream: Downstream? { get set }

    /// The events waiting for the thread holding the turn.
    var delivery: PacedDelivery<Event> { get set }

    /// Lets go of what the operator still holds for later elements, as the completion goes out.
    mutating func releaseAtCompletion()
}

extension PacedState {
    @inlinable
    mutating func releaseAtCompletion() {}

    /// The next event for the thread holding the turn, with the downstream to deliver it to; `nil`
    /// ends the drain, and the turn is then given up, to `waiter` if one was parked.
    @inlinable
    mutating func nextEvent(handingOverTo waiter: inout TurnWaiter?) -> (Event, Downstream)? {
        // Once cancelled, nothing more goes out: emptying the queue ends the drain.
        guard let downstream else {
            delivery.discard()
            _ = delivery.next(handingOverTo: &waiter)
            return nil
        }
        guard let event = delivery.next(handingOverTo: &waiter) else { return nil }
        if event.isCompletion {
            self.downstream = nil
            releaseAtCompletion()
            delivery.discard()
        }
        return (event, downstream)
    }
}

/// A ``PacedState`` whose events are a value or the completion, and that counts downstream's demand:
/// the demand downstream answers a value with is added to it (`debounce`, `throttle`).
@usableFromInline
protocol PacedValueState: PacedState where Event == ScheduledEvent<Downstream.Input, Downstream.Failure> {
    /// What the downstream has asked for and not yet received.
    var demand: Subscribers.Demand { get set }
}

/// The subscription of a paced operator: a thin class that owns the lock and the one ``PacedState``,
/// and carries out the deliveries its state queues.
@usableFromInline
protocol PacedDelivering: AnyObject {
    associatedtype State: PacedState

    var lock: Lock { get }

    /// Guarded by `lock`.
    var state: State { get set }

    /// Hands one event to downstream; called with the lock released by the thread holding the turn.
    func deliver(_ event: State.Event, to downstream: State.Downstream)
}

extension PacedDelivering {
    /// Does what ``PacedDelivery/enqueue(_:thread:)`` asked of the caller.
    @inlinable
    func perform(_ duty: PacedDelivery<State.Event>.Duty, thread: ThreadIdentity) {
        switch duty {
        case .none:
            return
        case .drain:
            drain()
        case .waitThenDrain:
            awaitTurn(lock: lock) { state.delivery.turn.attempt(by: thread, $0) }
            drain()
        }
    }

    /// Delivers queued events one at a time, with the lock released during each call. The caller
    /// holds the turn; the drain gives it up.
    @inlinable
    func drain() {
        var handedOver: TurnWaiter?
        while let (event, downstream) = lock.withLock({ state.nextEvent(handingOverTo: &handedOver) }) {
            deliver(event, to: downstream)
        }
        handedOver?.unpark()
    }
}

extension PacedDelivering where State: PacedValueState {
    /// Delivers a value, adding the demand downstream answers with, or the completion.
    @inlinable
    func deliver(_ event: State.Event, to downstream: State.Downstream) {
        switch event {
        case .value(let value):
            let additional = downstream.receive(value)
            if additional > 0 { lock.withLock { state.demand += additional } }
        case .completion(let completion):
            downstream.receive(completion: completion)
        }
    }
}
