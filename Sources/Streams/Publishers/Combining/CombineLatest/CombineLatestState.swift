/// The state of a combine-latest subscription (``CombineLatestInner``), kept under its lock. Each
/// method decides what an event does and returns what must then be done outside the lock; the
/// calling thread's identity is passed in.
///
/// The rules are Combine's:
/// - Each upstream's latest value is kept (a buffer of one). Once every upstream has sent a value,
///   each value that arrives while downstream has demand sends the tuple of the latest values down.
///   A value that arrives without demand only replaces its upstream's latest value: nothing is sent
///   when demand comes later.
/// - Every request from downstream is passed on, as it is, to every upstream that has not finished;
///   demand that downstream returns from a value is passed on the same way (returned to the upstream
///   that sent the value, requested from the others). An upstream that subscribes late is asked for
///   everything requested so far.
/// - The stream finishes once every upstream has finished: an upstream that finishes without a value
///   does not end it early. It fails with the first failure, cancelling the other upstreams.
/// - One thread at a time holds the ``DeliveryTurn`` and sends downstream. A value sent on that
///   thread from inside a call to downstream is kept as its upstream's latest value but, as in
///   Combine, sends nothing. A completion that arrives while a delivery is in progress (or before
///   downstream has its subscription) goes down when the turn is given up.
@usableFromInline
struct CombineLatestState<Buffers: CombineLatestBuffers, Failure: Error> {
    /// One upstream's place.
    @usableFromInline
    struct Upstream {
        /// Its subscription, once received and until it ends.
        @usableFromInline
        var subscription: (any Subscription)?

        /// It sent a subscription (a second one is cancelled).
        @usableFromInline
        var subscribed = false

        /// It finished.
        @usableFromInline
        var finished = false

        @inlinable
        init() {}
    }

    /// What to do with a value from an upstream.
    @usableFromInline
    enum Arrival {
        /// Nothing more: the stream has ended, or the value was kept without being sent.
        case done
        /// Another thread holds the turn: wait for it.
        case wait
        /// This thread holds the turn: send the tuple down.
        case deliver(Buffers.Output)
    }

    /// What the thread giving up the turn does next.
    @usableFromInline
    enum Release {
        /// Deliver the completion first.
        case complete(Subscribers.Completion<Failure>)
        /// The turn is given up, to this waiter if one was parked (wake it).
        case released(TurnWaiter?)
    }

    /// How the stream ends.
    @usableFromInline
    struct Ending {
        /// The upstreams, whose subscriptions to cancel on a failure, let go of outside the lock.
        @usableFromInline
        var released: [Upstream]

        /// The latest values, let go of outside the lock.
        @usableFromInline
        var buffers: Buffers

        /// This thread took the turn: give it up, which delivers the completion.
        @usableFromInline
        var start: Bool

        @inlinable
        init(released: [Upstream], buffers: Buffers, start: Bool) {
            self.released = released
            self.buffers = buffers
            self.start = start
        }
    }

    /// The latest value of each upstream.
    @usableFromInline
    var buffers = Buffers()

    /// Emptied when the stream ends.
    @usableFromInline
    var upstreams: [Upstream]

    /// How many upstreams have finished.
    @usableFromInline
    var finishedCount = 0

    /// Downstream's outstanding demand.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Everything asked of the upstreams so far, for one that subscribes late.
    @usableFromInline
    var requested = Subscribers.Demand.none

    /// Which thread delivers to downstream, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    /// Nothing more goes downstream except `pendingCompletion`.
    @usableFromInline
    var isTerminal = false

    /// Downstream has received its subscription.
    @usableFromInline
    var isEstablished = false

    /// The completion for the thread that gives up the turn to deliver.
    @usableFromInline
    var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(upstreamCount: Int) {
        upstreams = Array(repeating: Upstream(), count: upstreamCount)
    }

    /// Downstream has its subscription: returns whether this thread took the turn to deliver a
    /// completion that arrived meanwhile.
    @inlinable
    mutating func establish(thread: ThreadIdentity) -> Bool {
        isEstablished = true
        guard pendingCompletion != nil else { return false }
        return turn.takeIfFree(by: thread)
    }

    // MARK: Upstreams

    /// Upstream `index` sent `subscription`: returns what to ask of it, or `nil` to cancel it.
    @inlinable
    mutating func receive(subscription: any Subscription, index: Int) -> Subscribers.Demand? {
        guard !isTerminal, !upstreams[index].subscribed else { return nil }
        upstreams[index].subscribed = true
        upstreams[index].subscription = subscription
        return requested
    }

    /// Decides what happens to a value that `store` keeps as its upstream's latest. `holdingTurn`
    /// says the caller waited for the turn and holds it now.
    @inlinable
    mutating func arrive<Input>(
        _ input: Input, store: (inout Buffers, Input) -> Void, thread: ThreadIdentity, holdingTurn: Bool
    ) -> Arrival {
        guard !isTerminal else { return .done }
        if !holdingTurn, turn.isHeld {
            guard turn.holder == thread else { return .wait }
            // Sent from inside a call to downstream: as in Combine, kept but not sent.
            store(&buffers, input)
            return .done
        }
        store(&buffers, input)
        guard demand > 0, let output = buffers.output else { return .done }
        if demand != .unlimited { demand -= 1 }
        if !holdingTurn { turn.take(by: thread) }
        return .deliver(output)
    }

    /// Downstream returned `more` for a tuple: returns the upstreams to ask for it (all but the
    /// sender, which gets it as its return value), or `nil` when nobody is to be asked.
    @inlinable
    mutating func returned(_ more: Subscribers.Demand) -> [Upstream]? {
        guard !isTerminal, demand != .unlimited else { return nil }
        demand += more
        requested += more
        return upstreams
    }

    /// Upstream `index` completed: returns how the stream ends, if it does now.
    @inlinable
    mutating func complete(
        _ completion: Subscribers.Completion<Failure>, index: Int, thread: ThreadIdentity
    ) -> Ending? {
        guard !isTerminal else { return nil }
        if case .finished = completion {
            guard !upstreams[index].finished else { return nil }
            upstreams[index].finished = true
            upstreams[index].subscription = nil
            finishedCount += 1
            guard finishedCount == upstreams.count else { return nil }
        }
        isTerminal = true
        pendingCompletion = completion
        let (released, buffers) = end()
        return Ending(released: released, buffers: buffers, start: isEstablished && turn.takeIfFree(by: thread))
    }

    // MARK: Delivery

    /// Gives the turn up in one pass when no completion is due and nobody waits: returns `false`
    /// when the thread must go through ``nextRelease()`` instead.
    @inlinable
    mutating func releaseTurnIfIdle() -> Bool {
        guard pendingCompletion == nil, !turn.hasWaiters else { return false }
        turn.releaseUncontended()
        return true
    }

    /// The next step of the thread giving up the turn.
    @inlinable
    mutating func nextRelease() -> Release {
        if isEstablished, let completion = pendingCompletion.take() { return .complete(completion) }
        return .released(turn.release())
    }

    // MARK: Downstream

    /// Downstream asked for `more`: returns the upstreams to ask for it.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> [Upstream] {
        guard !isTerminal else { return [] }
        demand += more
        requested += more
        return upstreams
    }

    /// Downstream cancelled: returns the upstreams to cancel and the values to let go of, unless the
    /// stream already ended.
    @inlinable
    mutating func cancel() -> (released: [Upstream], buffers: Buffers)? {
        pendingCompletion = nil
        guard !isTerminal else { return nil }
        isTerminal = true
        return end()
    }

    /// Empties the upstreams and the buffers, returning them to be let go of outside the lock.
    @inlinable
    mutating func end() -> (released: [Upstream], buffers: Buffers) {
        let released = (upstreams, buffers)
        upstreams = []
        buffers = Buffers()
        return released
    }
}
