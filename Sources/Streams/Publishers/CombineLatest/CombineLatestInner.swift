/// The latest value of each upstream of a combine-latest publisher, and the tuple they make.
///
/// ``Publishers/CombineLatest``, ``Publishers/CombineLatest3`` and ``Publishers/CombineLatest4`` each
/// define one: a struct with an optional stored property per upstream.
@usableFromInline
protocol CombineLatestBuffers {
    /// The tuple of every upstream's latest value.
    associatedtype Output

    /// Buffers holding no value.
    init()

    /// The tuple of the latest values, once every upstream has sent one.
    var output: Output? { get }

    /// The latest values in upstream order, `nil` where none arrived yet, for the mirror.
    var mirrorValues: [Any?] { get }
}

/// The subscription every combine-latest publisher gives its subscriber, and the parent of one
/// ``UpstreamSide`` subscriber per upstream publisher, identified by its index.
///
/// Behaviour, as in Combine:
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
/// - Requesting no values stops the program, as in Combine.
///
/// Delivery is serialized with a ``DeliveryTurn``: one thread at a time sends downstream. A value
/// from another thread meanwhile waits for the turn, then goes down on its own thread. A value sent
/// on the delivering thread from inside a call to downstream is kept as its upstream's latest value
/// but, as in Combine, sends nothing. A completion that arrives while a delivery is in progress (or
/// before downstream has its subscription) goes down when the turn is given up. All state lives under
/// `lock`; downstream and the upstreams are never called with it held.
@usableFromInline
final class CombineLatestInner<Buffers: CombineLatestBuffers, Downstream: Subscriber>: Subscription,
    BufferingUpstreamOwner, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Buffers.Output {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    typealias UpstreamFailure = Downstream.Failure

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
        case deliver(Downstream.Input)
    }

    /// What the thread giving up the turn does next.
    @usableFromInline
    enum Release {
        /// Deliver the completion first.
        case complete(Subscribers.Completion<Failure>)
        /// The turn is given up, to this waiter if one was parked (wake it).
        case released(TurnWaiter?)
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`: the latest value of each upstream.
    @usableFromInline
    @exclusivity(unchecked)
    var buffers = Buffers()

    /// Guarded by `lock`; emptied when the stream ends.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreams: [Upstream]

    /// Guarded by `lock`: how many upstreams have finished.
    @usableFromInline
    @exclusivity(unchecked)
    var finishedCount = 0

    /// Guarded by `lock`: downstream's outstanding demand.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: everything asked of the upstreams so far, for one that subscribes late.
    @usableFromInline
    @exclusivity(unchecked)
    var requested = Subscribers.Demand.none

    /// Guarded by `lock`: which thread delivers to downstream, and who waits for it.
    @usableFromInline
    @exclusivity(unchecked)
    var turn = DeliveryTurn()

    /// Guarded by `lock`: nothing more goes downstream except `pendingCompletion`.
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false

    /// Guarded by `lock`: downstream has received its subscription.
    @usableFromInline
    @exclusivity(unchecked)
    var isEstablished = false

    /// Guarded by `lock`: the completion for the thread that gives up the turn to deliver.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.upstreams = Array(repeating: Upstream(), count: count)
    }

    /// Gives downstream its subscription, once every upstream has been subscribed, then delivers a
    /// completion that arrived meanwhile.
    @inlinable
    func establish() {
        downstream.receive(subscription: self)
        let start = lock.withLock { () -> Bool in
            isEstablished = true
            guard pendingCompletion != nil, !turn.isHeld else { return false }
            turn.take(by: .current)
            return true
        }
        if start { releaseTurn() }
    }

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, upstream index: Int) {
        let first = lock.withLock { () -> Subscribers.Demand? in
            guard !isTerminal, !upstreams[index].subscribed else { return nil }
            upstreams[index].subscribed = true
            upstreams[index].subscription = subscription
            return requested
        }
        guard let first else {
            subscription.cancel()
            return
        }
        if first > 0 { subscription.request(first) }
    }

    @inlinable
    func receive<Input>(
        _ input: Input, upstream index: Int, store: (inout Buffers, Input) -> Void
    ) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        var arrival = lock.withLock {
            arriveLocked(input, store: store, thread: thread, holdingTurn: false)
        }
        if case .wait = arrival {
            awaitTurn(lock: lock) { turn.attempt(by: thread, mayPark: $0) }
            arrival = lock.withLock {
                arriveLocked(input, store: store, thread: thread, holdingTurn: true)
            }
            guard case .deliver = arrival else {
                releaseTurn()
                return .none
            }
        }
        guard case .deliver(let output) = arrival else { return .none }
        return deliver(output, from: index)
    }

    /// Decides what happens to a value. Call with `lock` held.
    @inlinable
    func arriveLocked<Input>(
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

    /// Sends a tuple down on the thread holding the turn, passes on the demand downstream returns,
    /// then gives the turn up. Returns the demand for the upstream at `index`.
    @inlinable
    func deliver(_ output: Downstream.Input, from index: Int) -> Subscribers.Demand {
        let more = downstream.receive(output)
        guard more > 0 else {
            releaseTurn()
            return .none
        }
        let others = lock.withLock { () -> [Upstream]? in
            guard !isTerminal, demand != .unlimited else { return nil }
            demand += more
            requested += more
            return upstreams
        }
        releaseTurn()
        guard let others else { return .none }
        for (other, upstream) in others.enumerated() where other != index {
            upstream.subscription?.request(more)
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, upstream index: Int) {
        let ended = lock.withLock { () -> (released: [Upstream], buffers: Buffers, start: Bool)? in
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
            let released = (upstreams, buffers)
            upstreams = []
            buffers = Buffers()
            let start = isEstablished && !turn.isHeld
            if start { turn.take(by: .current) }
            return (released.0, released.1, start)
        }
        guard let ended else { return }
        if case .failure = completion {
            for (other, upstream) in ended.released.enumerated() where other != index {
                upstream.subscription?.cancel()
            }
        }
        withExtendedLifetime(ended.buffers) {}
        if ended.start { releaseTurn() }
    }

    // MARK: Delivery

    /// Gives the turn up, to the thread that has waited longest if one is parked, after delivering
    /// the completion if one is due.
    @inlinable
    func releaseTurn() {
        // Usually nothing is due and nobody waits: give the turn up in one pass.
        let released = lock.withLock { () -> Bool in
            guard pendingCompletion == nil, !turn.hasWaiters else { return false }
            turn.releaseUncontended()
            return true
        }
        if !released { releaseTurnSlowly() }
    }

    /// Gives the turn up after delivering the completion that is due, or to a waiting thread.
    @inlinable
    @inline(never)
    func releaseTurnSlowly() {
        while true {
            let step = lock.withLock { () -> Release in
                if isEstablished, let completion = pendingCompletion.take() { return .complete(completion) }
                return .released(turn.release())
            }
            switch step {
            case .complete(let completion):
                downstream.receive(completion: completion)
            case .released(let waiter):
                waiter?.unpark()
                return
            }
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let upstreams = lock.withLock { () -> [Upstream] in
            guard !isTerminal else { return [] }
            self.demand += demand
            requested += demand
            return self.upstreams
        }
        for upstream in upstreams { upstream.subscription?.request(demand) }
    }

    @inlinable
    func cancel() {
        let ended = lock.withLock { () -> (released: [Upstream], buffers: Buffers)? in
            pendingCompletion = nil
            guard !isTerminal else { return nil }
            isTerminal = true
            let released = (upstreams, buffers)
            upstreams = []
            buffers = Buffers()
            return released
        }
        guard let ended else { return }
        withExtendedLifetime(ended.buffers) {}
        for upstream in ended.released { upstream.subscription?.cancel() }
    }

    @usableFromInline
    static var upstreamPresentation: UpstreamSidePresentation { .child(named: "CombineLatest") }

    @usableFromInline
    var description: String { "CombineLatest" }

    @usableFromInline
    var customMirror: Mirror {
        let (subscriptions, demand, buffers) = lock.withLock {
            (upstreams.map(\.subscription), self.demand, self.buffers.mirrorValues)
        }
        return Mirror(
            self,
            children: [
                "downstream": downstream,
                "upstreamSubscriptions": subscriptions,
                "demand": demand,
                "buffers": buffers,
            ])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
