/// The subscription every merging publisher (``Publishers/Merge`` to ``Publishers/Merge8`` and
/// ``Publishers/MergeMany``) gives its subscriber, and the parent of one ``UpstreamSide`` subscriber per
/// upstream publisher, identified by its index.
///
/// Demand is shared as in Combine: each upstream is asked for one value at a time (or for unlimited
/// values once downstream's demand is unlimited). A value that arrives while downstream has no demand
/// waits in its upstream's slot, and that upstream is asked for one more only once the value has gone
/// down. More demand delivers the waiting values in upstream order.
///
/// All state lives under `lock`. Values reach downstream one at a time from whichever thread holds
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
    typealias Input = Downstream.Input

    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    typealias UpstreamInput = Downstream.Input

    @usableFromInline
    typealias UpstreamFailure = Downstream.Failure

    @usableFromInline
    typealias UpstreamIndex = Int

    /// One upstream's place.
    @usableFromInline
    struct Slot {
        /// Its subscription, once received and until it ends.
        @usableFromInline
        var subscription: (any Subscription)?

        /// A value waiting for demand.
        @usableFromInline
        var waiting: Input?

        /// It finished.
        @usableFromInline
        var finished = false

        /// It sent a subscription (a second one is cancelled).
        @usableFromInline
        var subscribed = false

        @inlinable
        init() {}
    }

    /// What the thread holding the turn does next.
    @usableFromInline
    typealias Step = DrainStep<Input, Failure>

    /// What to do with a value from an upstream.
    @usableFromInline
    enum Arrival {
        /// Ignore it: the stream has ended.
        case drop
        /// It waits in its slot for demand.
        case waiting
        /// This thread took the turn: deliver it, then drain. The flag says demand is unlimited.
        case deliver(unlimited: Bool)
        /// This thread holds the turn and is inside a call to downstream: deliver it there and then.
        case nested(unlimited: Bool)
        /// Another thread holds the turn: wait for it.
        case wait
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var slots: [Slot]

    /// Guarded by `lock`: how many upstreams have finished.
    @usableFromInline
    @exclusivity(unchecked)
    var finishedCount = 0

    /// Guarded by `lock`: how many slots hold a waiting value, so that delivery looks through the
    /// slots only when one does.
    @usableFromInline
    @exclusivity(unchecked)
    var waitingCount = 0

    /// Guarded by `lock`: downstream's outstanding demand.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: which thread delivers to downstream, and who waits for it.
    @usableFromInline
    @exclusivity(unchecked)
    var turn = DeliveryTurn()

    /// Guarded by `lock`: nothing more goes downstream (finished, failing or cancelled).
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false

    /// Guarded by `lock`: a failure for the thread holding the turn to deliver.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingFailure: Failure?

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.slots = Array(repeating: Slot(), count: count)
    }

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, upstream index: Int) {
        let first = lock.withLock { () -> Subscribers.Demand? in
            guard !isTerminal, !slots[index].subscribed else { return nil }
            slots[index].subscribed = true
            slots[index].subscription = subscription
            return demand == .unlimited ? .unlimited : .max(1)
        }
        guard let first else {
            subscription.cancel()
            return
        }
        subscription.request(first)
    }

    @inlinable
    func receive(_ input: Input, upstream index: Int) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        switch lock.withLock({ arriveLocked(input, index: index, thread: thread, holdingTurn: false) }) {
        case .drop, .waiting:
            return .none
        case .deliver(let unlimited):
            let more = downstream.receive(input)
            endTurn(adding: more)
            return unlimited ? .none : .max(1)
        case .nested(let unlimited):
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { demand += more } }
            return unlimited ? .none : .max(1)
        case .wait:
            return receiveAfterWaiting(input, index: index, thread: thread)
        }
    }

    /// Delivers a value that arrived while another thread held the turn, once this thread has it.
    @inlinable
    @inline(never)
    func receiveAfterWaiting(_ input: Input, index: Int, thread: ThreadIdentity) -> Subscribers.Demand {
        awaitTurn(lock: lock) { turn.attempt(by: thread, mayPark: $0) }
        switch lock.withLock({ arriveLocked(input, index: index, thread: thread, holdingTurn: true) }) {
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

    /// Ends the turn of the thread that has just delivered a value, given the demand downstream
    /// returned for it: in one pass of the lock when nothing else is due (no value waiting, no
    /// completion, no thread waiting for the turn), else by draining.
    @inlinable
    @inline(__always)
    func endTurn(adding more: Subscribers.Demand) {
        let ended = lock.withLock { () -> Bool in
            guard !isTerminal else { return false }
            if more > 0 { demand += more }
            guard waitingCount == 0, finishedCount != slots.count, !turn.hasWaiters else { return false }
            turn.releaseUncontended()
            return true
        }
        if !ended { drain(adding: .none) }
    }

    /// Decides what happens to a value from the upstream at `index`. Call with `lock` held.
    @inlinable
    @inline(__always)
    func arriveLocked(_ input: Input, index: Int, thread: ThreadIdentity, holdingTurn: Bool) -> Arrival {
        guard !isTerminal else { return .drop }
        if !holdingTurn, turn.isHeld, turn.holder != thread { return .wait }
        guard demand > 0 else { return holdLocked(input, index: index) }
        let unlimited = demand == .unlimited
        if !unlimited { demand -= 1 }
        if holdingTurn { return .deliver(unlimited: unlimited) }
        if turn.isHeld { return .nested(unlimited: unlimited) }
        turn.take(by: thread)
        return .deliver(unlimited: unlimited)
    }

    /// Keeps a value from the upstream at `index` in its slot until there is demand. Call with `lock`
    /// held.
    @inlinable
    @inline(never)
    func holdLocked(_ input: Input, index: Int) -> Arrival {
        // As in Combine, a value beyond what was asked replaces the one waiting.
        if slots[index].waiting == nil { waitingCount += 1 }
        slots[index].waiting = input
        return .waiting
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, upstream index: Int) {
        switch completion {
        case .finished:
            let start = lock.withLock { () -> Bool in
                guard !isTerminal, !slots[index].finished else { return false }
                slots[index].finished = true
                slots[index].subscription = nil
                finishedCount += 1
                guard finishedCount == slots.count, !turn.isHeld else { return false }
                turn.take(by: .current)
                return true
            }
            if start { drain(adding: .none) }
        case .failure(let error):
            fail(error, index: index)
        }
    }

    /// Ends the stream with the failure of the upstream at `index`: cancels the other upstreams and
    /// delivers the failure, or leaves it to the thread holding the turn.
    @inlinable
    func fail(_ error: Failure, index: Int) {
        let ended = lock.withLock { () -> (cancel: [any Subscription], released: [Slot], deliver: Bool)? in
            guard !isTerminal else { return nil }
            isTerminal = true
            var cancel: [any Subscription] = []
            for (other, slot) in slots.enumerated() where other != index {
                if let subscription = slot.subscription { cancel.append(subscription) }
            }
            let released = slots
            slots = []
            waitingCount = 0
            guard !turn.isHeld else {
                pendingFailure = error
                return (cancel, released, false)
            }
            turn.take(by: .current)
            return (cancel, released, true)
        }
        guard let ended else { return }
        for subscription in ended.cancel { subscription.cancel() }
        withExtendedLifetime(ended.released) {}
        if ended.deliver {
            downstream.receive(completion: .failure(error))
            releaseTurn()
        }
    }

    // MARK: Delivery

    /// Gives the turn up, to the thread that has waited longest if one is parked.
    @inlinable
    func releaseTurn() {
        lock.withLock { turn.release() }?.unpark()
    }

    /// Delivers waiting values while there is demand, in upstream order, then the completion if it
    /// is due. Runs on the thread holding the turn, which it gives up before returning.
    @inlinable
    func drain(adding initialDemand: Subscribers.Demand) {
        drainDeliveryTurn(to: downstream, adding: initialDemand, lock: lock, releaseTurn: releaseTurn) {
            added -> Step in
            if isTerminal {
                if let failure = pendingFailure.take() { return .fail(failure) }
                return .stop(turn.release())
            }
            if added > 0 { demand += added }
            if waitingCount > 0 {
                if demand > 0, let index = slots.firstIndex(where: { $0.waiting != nil }),
                    let value = slots[index].waiting.take()
                {
                    waitingCount -= 1
                    if demand != .unlimited { demand -= 1 }
                    return .deliver(value, demand == .unlimited ? nil : slots[index].subscription)
                }
            } else if finishedCount == slots.count {
                isTerminal = true
                slots = []
                waitingCount = 0
                return .finish
            }
            return .stop(turn.release())
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, a request for no values is ignored.
        guard demand > 0 else { return }
        let (start, unleash) = lock.withLock { () -> (Bool, [any Subscription]) in
            guard !isTerminal else { return (false, []) }
            let wasUnlimited = self.demand == .unlimited
            self.demand += demand
            var unleash: [any Subscription] = []
            if !wasUnlimited, self.demand == .unlimited {
                unleash = slots.compactMap(\.subscription)
            }
            guard !turn.isHeld else { return (false, unleash) }
            turn.take(by: .current)
            return (true, unleash)
        }
        if start { drain(adding: .none) }
        for subscription in unleash { subscription.request(.unlimited) }
    }

    @inlinable
    func cancel() {
        let ended = lock.withLock { () -> [Slot]? in
            guard !isTerminal else {
                pendingFailure = nil
                return nil
            }
            isTerminal = true
            let released = slots
            slots = []
            waitingCount = 0
            return released
        }
        guard let ended else { return }
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
