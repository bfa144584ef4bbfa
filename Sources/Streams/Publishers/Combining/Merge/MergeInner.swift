/// The subscription every merging publisher (``Publishers/Merge`` to ``Publishers/Merge8`` and
/// ``Publishers/MergeMany``) gives its subscriber, and the parent of one ``UpstreamSide`` subscriber per
/// upstream publisher, identified by its index.
///
/// Demand is shared as in Combine: each upstream is asked for one value at a time (or for unlimited
/// values once downstream's demand is unlimited). A value that arrives while downstream has no demand
/// waits in its upstream's slot, and that upstream is asked for one more only once the value has gone
/// down. More demand delivers the waiting values in upstream order.
///
/// All state lives in one ``MergeState`` under `lock`, which decides; this class carries out its
/// decisions with the lock released. Values reach downstream one at a time from whichever thread holds
/// the emitting turn (a ``DeliveryTurn``): a value sent from another thread meanwhile waits for the
/// turn and then goes down on its own thread. A value sent on the emitting thread itself, from inside
/// a call to downstream, goes down nested in that call, as in Combine. The merged stream finishes when
/// every upstream has finished and no value waits; it fails with the first failure, cancelling the
/// other upstreams. Downstream is never called with the lock held.
@usableFromInline
final class MergeInner<Downstream: Subscriber>: Subscription, IndexedUpstreamOwner, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias State = MergeState<Downstream.Input, Downstream.Failure>

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

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, upstream index: Int) {
        guard let first = lock.withLock({ state.receive(subscription: subscription, index: index) }) else {
            subscription.cancel()
            return
        }
        subscription.request(first)
    }

    @inlinable
    func receive(_ input: Downstream.Input, upstream index: Int) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        switch lock.withLock({ state.arrive(input, index: index, thread: thread, holdingTurn: false) }) {
        case .drop, .waiting:
            return .none
        case .deliver(let unlimited):
            let more = downstream.receive(input)
            if !lock.withLock({ state.endTurnIfIdle(adding: more) }) { drain(adding: .none) }
            return unlimited ? .none : .max(1)
        case .nested(let unlimited):
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { state.add(more) } }
            return unlimited ? .none : .max(1)
        case .wait:
            return receiveAfterWaiting(input, index: index, thread: thread)
        }
    }

    /// Delivers a value that arrived while another thread held the turn, once this thread has it.
    @inlinable
    @inline(never)
    func receiveAfterWaiting(_ input: Downstream.Input, index: Int, thread: ThreadIdentity) -> Subscribers.Demand {
        awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
        switch lock.withLock({ state.arrive(input, index: index, thread: thread, holdingTurn: true) }) {
        case .drop, .waiting, .wait:
            // Still holding the turn: deliver what arrived meanwhile, then give the turn up.
            drain(adding: .none)
            return .none
        case .deliver(let unlimited), .nested(let unlimited):
            let more = downstream.receive(input)
            drain(adding: more)
            return unlimited ? .none : .max(1)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, upstream index: Int) {
        let thread = ThreadIdentity.current
        switch completion {
        case .finished:
            if lock.withLock({ state.finish(index: index, thread: thread) }) { drain(adding: .none) }
        case .failure(let error):
            guard let failing = lock.withLock({ state.fail(error, index: index, thread: thread) }) else { return }
            for subscription in failing.cancel { subscription.cancel() }
            withExtendedLifetime(failing.released) {}
            if failing.deliver {
                downstream.receive(completion: .failure(error))
                releaseTurn()
            }
        }
    }

    // MARK: Delivery

    /// Gives the turn up, to the thread that has waited longest if one is parked.
    @inlinable
    func releaseTurn() {
        lock.withLock { state.turn.release() }?.unpark()
    }

    /// Delivers waiting values while there is demand, in upstream order, then the completion if it
    /// is due. Runs on the thread holding the turn, which it gives up before returning.
    @inlinable
    func drain(adding initialDemand: Subscribers.Demand) {
        drainDeliveryTurn(to: downstream, adding: initialDemand, lock: lock, releaseTurn: releaseTurn) {
            state.next(adding: $0)
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, a request for no values is ignored.
        guard demand > 0 else { return }
        let thread = ThreadIdentity.current
        let (start, unleash) = lock.withLock { state.request(demand, thread: thread) }
        if start { drain(adding: .none) }
        for subscription in unleash { subscription.request(.unlimited) }
    }

    @inlinable
    func cancel() {
        guard let ended = lock.withLock({ state.cancel() }) else { return }
        for slot in ended { slot.subscription?.cancel() }
    }

    @usableFromInline
    static var upstreamPresentation: UpstreamSidePresentation { .child(named: "Merge") }

    @usableFromInline
    var description: String { "Merge" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
