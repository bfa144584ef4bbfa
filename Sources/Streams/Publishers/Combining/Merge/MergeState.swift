/// The state of a merging subscription (``MergeInner``), kept under its lock. Each method decides what
/// an event does and returns what must then be done outside the lock; the calling thread's identity
/// is passed in.
///
/// The rules are Combine's:
/// - Each upstream is asked for one value at a time, or for unlimited values once downstream's
///   demand is unlimited. A value that arrives while downstream has no demand waits in its upstream's
///   slot (a later one replaces it), and that upstream is asked for one more only once the value has
///   gone down. More demand delivers the waiting values in upstream order.
/// - The merged stream finishes when every upstream has finished and no value waits; it fails with
///   the first failure, cancelling the other upstreams.
/// - Values go down one at a time from the thread holding the ``DeliveryTurn``; a value sent from
///   inside downstream on that thread goes down nested in that call, as in Combine.
@usableFromInline
struct MergeState<Input, Failure: Error> {
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

    /// How the stream ends on a failure.
    @usableFromInline
    struct Failing {
        /// The other upstreams, to cancel.
        @usableFromInline
        var cancel: [any Subscription]

        /// The slots, to let go of outside the lock.
        @usableFromInline
        var released: [Slot]

        /// This thread took the turn and delivers the failure (otherwise the holder does).
        @usableFromInline
        var deliver: Bool

        @inlinable
        init(cancel: [any Subscription], released: [Slot], deliver: Bool) {
            self.cancel = cancel
            self.released = released
            self.deliver = deliver
        }
    }

    @usableFromInline
    var slots: [Slot]

    /// How many upstreams have finished.
    @usableFromInline
    var finishedCount = 0

    /// How many slots hold a waiting value, so that delivery looks through the slots only when one
    /// does.
    @usableFromInline
    var waitingCount = 0

    /// Downstream's outstanding demand.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Which thread delivers to downstream, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    /// Nothing more goes downstream: finished, failing or cancelled.
    @usableFromInline
    var isTerminal = false

    /// A failure for the thread holding the turn to deliver.
    @usableFromInline
    var pendingFailure: Failure?

    @inlinable
    init(upstreamCount: Int) {
        slots = Array(repeating: Slot(), count: upstreamCount)
    }

    // MARK: Upstreams

    /// Upstream `index` sent `subscription`: returns what to ask of it, or `nil` to cancel it.
    @inlinable
    mutating func receive(subscription: any Subscription, index: Int) -> Subscribers.Demand? {
        guard !isTerminal, !slots[index].subscribed else { return nil }
        slots[index].subscribed = true
        slots[index].subscription = subscription
        return demand == .unlimited ? .unlimited : .max(1)
    }

    /// Decides what happens to `input` from upstream `index`. `holdingTurn` says the caller waited for
    /// the turn and holds it now.
    @inlinable
    @inline(__always)
    mutating func arrive(_ input: Input, index: Int, thread: ThreadIdentity, holdingTurn: Bool) -> Arrival {
        guard !isTerminal else { return .drop }
        if !holdingTurn, turn.isHeld, turn.holder != thread { return .wait }
        guard demand > 0 else { return hold(input, index: index) }
        let unlimited = demand == .unlimited
        if !unlimited { demand -= 1 }
        if holdingTurn { return .deliver(unlimited: unlimited) }
        if turn.isHeld { return .nested(unlimited: unlimited) }
        turn.take(by: thread)
        return .deliver(unlimited: unlimited)
    }

    /// Keeps a value from upstream `index` in its slot until there is demand.
    @inlinable
    @inline(never)
    mutating func hold(_ input: Input, index: Int) -> Arrival {
        // As in Combine, a value beyond what was asked replaces the one waiting.
        if slots[index].waiting == nil { waitingCount += 1 }
        slots[index].waiting = input
        return .waiting
    }

    /// Downstream returned `more` for a value delivered nested in an outer delivery.
    @inlinable
    mutating func add(_ more: Subscribers.Demand) {
        if more > 0 { demand += more }
    }

    /// Ends the turn of the thread that has just delivered a value, given the demand downstream
    /// returned for it, when nothing else is due (no value waiting, no completion, no thread waiting
    /// for the turn): returns `false` when the thread must drain instead.
    @inlinable
    @inline(__always)
    mutating func endTurnIfIdle(adding more: Subscribers.Demand) -> Bool {
        guard !isTerminal else { return false }
        if more > 0 { demand += more }
        guard waitingCount == 0, finishedCount != slots.count, !turn.hasWaiters else { return false }
        turn.releaseUncontended()
        return true
    }

    /// Upstream `index` finished: returns whether this thread took the turn to drain, because every
    /// upstream has now finished. The drain delivers what still waits, as demand allows, and then
    /// `.finished`; with values waiting and no demand, it stops and a later request finishes.
    @inlinable
    mutating func finish(index: Int, thread: ThreadIdentity) -> Bool {
        guard !isTerminal, !slots[index].finished else { return false }
        slots[index].finished = true
        slots[index].subscription = nil
        finishedCount += 1
        guard finishedCount == slots.count else { return false }
        return turn.takeIfFree(by: thread)
    }

    /// Upstream `index` failed: returns how the stream ends, unless it already has.
    @inlinable
    mutating func fail(_ failure: Failure, index: Int, thread: ThreadIdentity) -> Failing? {
        guard !isTerminal else { return nil }
        isTerminal = true
        var cancel: [any Subscription] = []
        for (other, slot) in slots.enumerated() where other != index {
            if let subscription = slot.subscription { cancel.append(subscription) }
        }
        let released = releaseSlots()
        guard turn.takeIfFree(by: thread) else {
            pendingFailure = failure
            return Failing(cancel: cancel, released: released, deliver: false)
        }
        return Failing(cancel: cancel, released: released, deliver: true)
    }

    // MARK: Delivery

    /// The next step of the thread holding the turn, given the demand downstream returned for the
    /// value delivered before.
    @inlinable
    mutating func next(adding added: Subscribers.Demand) -> DrainStep<Input, Failure> {
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
            _ = releaseSlots()
            return .finish
        }
        return .stop(turn.release())
    }

    // MARK: Downstream

    /// Downstream asked for `more`: returns whether this thread took the turn to drain, and the
    /// upstreams to ask for unlimited values now that demand became unlimited.
    @inlinable
    mutating func request(
        _ more: Subscribers.Demand, thread: ThreadIdentity
    ) -> (drain: Bool, unleash: [any Subscription]) {
        guard !isTerminal else { return (false, []) }
        let wasUnlimited = demand == .unlimited
        demand += more
        var unleash: [any Subscription] = []
        if !wasUnlimited, demand == .unlimited {
            unleash = slots.compactMap(\.subscription)
        }
        return (turn.takeIfFree(by: thread), unleash)
    }

    /// Downstream cancelled: returns the slots, whose subscriptions to cancel, unless the stream
    /// already ended.
    @inlinable
    mutating func cancel() -> [Slot]? {
        guard !isTerminal else {
            pendingFailure = nil
            return nil
        }
        isTerminal = true
        return releaseSlots()
    }

    /// Empties the slots, returning them to be let go of outside the lock.
    @inlinable
    mutating func releaseSlots() -> [Slot] {
        let released = slots
        slots = []
        waitingCount = 0
        return released
    }
}
