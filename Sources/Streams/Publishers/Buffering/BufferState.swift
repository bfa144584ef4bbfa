/// The state of a buffer (`Publishers.Buffer.Inner`), kept under its lock. Each method decides what
/// an event does and returns what must then be done outside the lock; the calling thread's identity
/// is passed in.
///
/// As in Combine: upstream is asked for `size` elements at first and one more per element delivered
/// (`keepFull`), or for unlimited elements (`byRequest`); elements beyond `size` are dropped (the
/// newest or the oldest) or end the stream with a custom error. Buffered elements go downstream in
/// batches as demand allows, from the thread holding the turn; the upstream's completion follows
/// them, and a failure goes as soon as downstream has no demand left.
@usableFromInline
struct BufferState<Input, Failure: Error> {
    /// What to do with an element from upstream.
    @usableFromInline
    enum Arrival {
        case ignore
        case buffered
        case makeError(() -> Failure, any Subscription)
    }

    /// What the drain loop does next.
    @usableFromInline
    enum Step {
        case deliver([Input])
        case complete(Subscribers.Completion<Failure>)
        case stop
    }

    @usableFromInline
    let size: Int

    @usableFromInline
    let whenFull: Publishers.BufferingStrategy<Failure>

    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// What downstream asked for and has not received.
    @usableFromInline
    var downstreamDemand = Subscribers.Demand.none

    /// The buffered elements, oldest first.
    @usableFromInline
    var values = FIFOQueue<Input>()

    /// How the stream ends, once known; it goes downstream after the buffered elements (a failure,
    /// as soon as downstream has no demand left).
    @usableFromInline
    var terminal: Subscribers.Completion<Failure>?

    /// The `customError` closure is running.
    @usableFromInline
    var makingError = false

    /// Which thread is draining.
    @usableFromInline
    var turn = DeliveryTurn()

    @inlinable
    init(size: Int, whenFull: Publishers.BufferingStrategy<Failure>) {
        self.size = size
        self.whenFull = whenFull
    }

    /// Upstream sent an element: buffers it, drops one, or asks for the custom error.
    @inlinable
    mutating func arrive(_ input: Input) -> Arrival {
        precondition(
            !makingError, "buffer(size:prefetch:whenFull:) received a value from inside its customError closure")
        guard let subscription = status.subscription else { return .ignore }
        if case .failure = terminal { return .ignore }
        if values.count >= size {
            switch whenFull {
            case .dropNewest:
                return .buffered
            case .dropOldest:
                _ = values.popFirst()
            case .customError(let makeError):
                makingError = true
                return .makeError(makeError, subscription)
            }
        }
        values.append(input)
        return .buffered
    }

    /// The custom error was made: it ends the stream once it goes downstream.
    @inlinable
    mutating func madeError(_ error: Failure) {
        makingError = false
        terminal = .failure(error)
    }

    /// Upstream completed: returns whether it is the first completion (which goes downstream once
    /// the buffer has drained).
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard status.isSubscribed, terminal == nil else { return false }
        terminal = completion
        return true
    }

    /// Downstream asked for `more`: returns the upstream subscription when this thread took the turn
    /// to drain.
    @inlinable
    mutating func request(_ more: Subscribers.Demand, thread: ThreadIdentity) -> (any Subscription)? {
        guard let subscription = status.subscription else { return nil }
        downstreamDemand += more
        return turn.takeIfFree(by: thread) ? subscription : nil
    }

    /// The next step of the thread holding the turn. When `releasing`, the turn is given up in the
    /// same step that finds nothing more to do, so that work another thread left meanwhile is never
    /// stranded: the waiter to wake is returned.
    @inlinable
    mutating func next(releasing: Bool) -> (Step, TurnWaiter?) {
        let step = nextStep()
        if case .deliver = step { return (step, nil) }
        return (step, releasing ? turn.release() : nil)
    }

    @inlinable
    mutating func nextStep() -> Step {
        guard status.isSubscribed else { return .stop }
        guard downstreamDemand > 0 else {
            guard case .failure = terminal, let terminal else { return .stop }
            status = .terminal
            return .complete(terminal)
        }
        if values.isEmpty {
            guard let terminal else { return .stop }
            status = .terminal
            return .complete(terminal)
        }
        let count = downstreamDemand.max.map { Swift.min($0, values.count) } ?? values.count
        let batch = values.removeFirst(upTo: count)
        downstreamDemand -= count
        return .deliver(batch)
    }

    /// Downstream returned `more` for a batch.
    @inlinable
    mutating func add(_ more: Subscribers.Demand) {
        downstreamDemand += more
    }

    /// Downstream cancelled: returns the upstream subscription to cancel and the elements dropped.
    @inlinable
    mutating func cancel() -> (subscription: (any Subscription)?, dropped: FIFOQueue<Input>) {
        guard let subscription = status.subscription else { return (nil, FIFOQueue()) }
        status = .terminal
        return (subscription, values.removeAll())
    }
}
