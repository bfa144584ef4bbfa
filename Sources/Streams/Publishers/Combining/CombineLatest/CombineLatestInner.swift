/// The subscription every combine-latest publisher gives its subscriber, and the parent of one
/// ``UpstreamSide`` subscriber per upstream publisher, identified by its index.
///
/// Its state, one ``CombineLatestState`` under `lock`, decides (the rules are written there); this
/// class carries out the decisions with the lock released: downstream and the upstreams are never
/// called with it held. Requesting no values stops the program, as in Combine.
@usableFromInline
final class CombineLatestInner<Buffers: CombineLatestBuffers, Downstream: Subscriber>: Subscription,
    BufferingUpstreamOwner, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Buffers.Output {
    @usableFromInline
    typealias State = CombineLatestState<Buffers, Downstream.Failure>

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var state: State

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.state = State(upstreamCount: count)
    }

    /// Gives downstream its subscription, once every upstream has been subscribed, then delivers a
    /// completion that arrived meanwhile.
    @inlinable
    func establish() {
        downstream.receive(subscription: self)
        let thread = ThreadIdentity.current
        if lock.withLock({ state.establish(thread: thread) }) { releaseTurn() }
    }

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, upstream index: Int) {
        guard let first = lock.withLock({ state.receive(subscription: subscription, index: index) }) else {
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
        var arrival = lock.withLock { state.arrive(input, store: store, thread: thread, holdingTurn: false) }
        if case .wait = arrival {
            awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
            arrival = lock.withLock { state.arrive(input, store: store, thread: thread, holdingTurn: true) }
            guard case .deliver = arrival else {
                releaseTurn()
                return .none
            }
        }
        guard case .deliver(let output) = arrival else { return .none }
        return deliver(output, from: index)
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
        let others = lock.withLock { state.returned(more) }
        releaseTurn()
        guard let others else { return .none }
        for (other, upstream) in others.enumerated() where other != index {
            upstream.subscription?.request(more)
        }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, upstream index: Int) {
        let thread = ThreadIdentity.current
        guard let ending = lock.withLock({ state.complete(completion, index: index, thread: thread) }) else {
            return
        }
        if case .failure = completion {
            for (other, upstream) in ending.released.enumerated() where other != index {
                upstream.subscription?.cancel()
            }
        }
        withExtendedLifetime(ending.buffers) {}
        if ending.start { releaseTurn() }
    }

    // MARK: Delivery

    /// Gives the turn up, to the thread that has waited longest if one is parked, after delivering
    /// the completion if one is due.
    @inlinable
    func releaseTurn() {
        // Usually nothing is due and nobody waits: give the turn up in one pass.
        if !lock.withLock({ state.releaseTurnIfIdle() }) { releaseTurnSlowly() }
    }

    /// Gives the turn up after delivering the completion that is due, or to a waiting thread.
    @inlinable
    @inline(never)
    func releaseTurnSlowly() {
        while true {
            switch lock.withLock({ state.nextRelease() }) {
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
        let upstreams = lock.withLock { state.request(demand) }
        for upstream in upstreams { upstream.subscription?.request(demand) }
    }

    @inlinable
    func cancel() {
        guard let ended = lock.withLock({ state.cancel() }) else { return }
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
            (state.upstreams.map(\.subscription), state.demand, state.buffers.mirrorValues)
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
