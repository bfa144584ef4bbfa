/// The subscription every zipping publisher (``Publishers/Zip`` to ``Publishers/Zip4``) gives its
/// subscriber, and the parent of one ``UpstreamSide`` subscriber per upstream publisher, identified by its
/// index. `Buffers` holds one queue per upstream; the rules live in ``ZipState``.
///
/// All state lives under `lock`. Tuples reach downstream one at a time from whichever thread holds
/// the delivering turn (a ``DeliveryTurn``): an upstream that completes a tuple on another thread
/// meanwhile waits for the turn, then delivers on its own thread. A tuple completed from inside a call
/// to downstream, on the delivering thread, goes down right after that call returns. Downstream and
/// the upstreams are never called with the lock held.
@usableFromInline
final class ZipInner<Downstream: Subscriber, Buffers: ZipBuffers>: Subscription, BufferingUpstreamOwner,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Buffers.Output == Downstream.Input {
    @usableFromInline
    typealias State = ZipState<Buffers, Downstream.Failure>

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var state = State()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, upstream index: Int) {
        guard let demand = lock.withLock({ state.receive(subscription: subscription, index: index) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive<Input>(_ input: Input, upstream index: Int, store: (inout Buffers, Input) -> Void)
        -> Subscribers.Demand
    {
        let thread = ThreadIdentity.current
        switch lock.withLock({ state.receive(index: index, thread: thread) { store(&$0, input) } }) {
        case .dropped, .queued:
            return .none
        case .deliver(let tuple):
            let more = downstream.receive(tuple)
            if more == .none, let owed = lock.withLock({ state.endTurnIfIdle() }) { return owed }
            return drain(after: more)
        case .wait:
            return receiveAfterWaiting(index: index, thread: thread)
        }
    }

    /// Delivers, once this thread holds the turn, the tuples that a value from upstream `index`
    /// completed while another thread held it.
    @inlinable
    @inline(never)
    func receiveAfterWaiting(index: Int, thread: ThreadIdentity) -> Subscribers.Demand {
        awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
        lock.withLock { state.processing = index }
        return drain(after: .none)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, upstream index: Int) {
        let thread = ThreadIdentity.current
        switch completion {
        case .finished:
            guard let step = lock.withLock({ state.finish(index: index, thread: thread) }) else { return }
            _ = perform(step)
        case .failure(let failure):
            guard let ending = lock.withLock({ state.fail(failure, index: index, thread: thread) }) else {
                return
            }
            ending.cancel.forEach { $0.cancel() }
            withExtendedLifetime(ending.released) {}
            if ending.deliver { _ = perform(.fail(failure)) }
        }
    }

    // MARK: Delivery

    /// Delivers the complete tuples, then the completion if it is due. Runs on the thread holding the
    /// turn, which it gives up before returning the demand owed to the upstream that started it.
    /// `more` is what downstream returned for the tuple delivered before, if any.
    @inlinable
    func drain(after more: Subscribers.Demand) -> Subscribers.Demand {
        var more = more
        while true {
            let (ask, step) = lock.withLock { state.next(after: more) }
            ask.forEach { $0.request(more) }
            if case .deliver(let tuple) = step {
                more = downstream.receive(tuple)
            } else {
                return perform(step)
            }
        }
    }

    /// Carries out a step that ends a turn; returns the demand owed to the upstream that started it.
    @inlinable
    func perform(_ step: State.Step) -> Subscribers.Demand {
        switch step {
        case .deliver:
            preconditionFailure("Zip delivers tuples in drain()")
        case .finish(let cancel, let released):
            cancel.forEach { $0.cancel() }
            withExtendedLifetime(released) {}
            downstream.receive(completion: .finished)
        case .fail(let failure):
            downstream.receive(completion: .failure(failure))
        case .stop(let waiter, let owed):
            waiter?.unpark()
            return owed
        }
        lock.withLock { state.releaseTurn() }.0?.unpark()
        return .none
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, which stops the program here.
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        lock.withLock { state.request(demand) }.forEach { $0.request(demand) }
    }

    @inlinable
    func cancel() {
        guard let ended = lock.withLock({ state.cancel() }) else { return }
        ended.cancel.forEach { $0.cancel() }
        withExtendedLifetime(ended.released) {}
    }

    @usableFromInline
    static var upstreamPresentation: UpstreamSidePresentation { .child(named: "Zip") }

    @usableFromInline
    var description: String { "Zip" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
