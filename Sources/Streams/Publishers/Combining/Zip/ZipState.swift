/// The queues of a zipping publisher, one per upstream, each typed by its upstream's output.
@usableFromInline
protocol ZipBuffers {
    /// The tuple made of one value from each queue.
    associatedtype Output

    /// Empty queues.
    init()

    /// How many upstreams (and queues) there are: two to four.
    static var upstreamCount: Int { get }

    /// Bit `i` is set when queue `i` holds a value.
    var nonEmpty: UInt8 { get }

    /// Removes the oldest value of every queue and returns them as a tuple. No queue may be empty.
    mutating func removeOldest() -> Output
}

/// The queues of ``Publishers/Zip``.
@usableFromInline
struct ZipBuffers2<A, B>: ZipBuffers {
    @usableFromInline
    var a = FIFOQueue<A>()

    @usableFromInline
    var b = FIFOQueue<B>()

    @inlinable
    init() {}

    @inlinable
    static var upstreamCount: Int { 2 }

    @inlinable
    var nonEmpty: UInt8 { (a.isEmpty ? 0 : 1) | (b.isEmpty ? 0 : 2) }

    @inlinable
    mutating func removeOldest() -> (A, B) {
        (a.removeFirst(), b.removeFirst())
    }
}

/// The queues of ``Publishers/Zip3``.
@usableFromInline
struct ZipBuffers3<A, B, C>: ZipBuffers {
    @usableFromInline
    var a = FIFOQueue<A>()

    @usableFromInline
    var b = FIFOQueue<B>()

    @usableFromInline
    var c = FIFOQueue<C>()

    @inlinable
    init() {}

    @inlinable
    static var upstreamCount: Int { 3 }

    @inlinable
    var nonEmpty: UInt8 { (a.isEmpty ? 0 : 1) | (b.isEmpty ? 0 : 2) | (c.isEmpty ? 0 : 4) }

    @inlinable
    mutating func removeOldest() -> (A, B, C) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst())
    }
}

/// The queues of ``Publishers/Zip4``.
@usableFromInline
struct ZipBuffers4<A, B, C, D>: ZipBuffers {
    @usableFromInline
    var a = FIFOQueue<A>()

    @usableFromInline
    var b = FIFOQueue<B>()

    @usableFromInline
    var c = FIFOQueue<C>()

    @usableFromInline
    var d = FIFOQueue<D>()

    @inlinable
    init() {}

    @inlinable
    static var upstreamCount: Int { 4 }

    @inlinable
    var nonEmpty: UInt8 {
        (a.isEmpty ? 0 : 1) | (b.isEmpty ? 0 : 2) | (c.isEmpty ? 0 : 4) | (d.isEmpty ? 0 : 8)
    }

    @inlinable
    mutating func removeOldest() -> (A, B, C, D) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
    }
}

/// Upstream subscriptions to call outside the lock: every one in `all` but the one at `excluded`.
///
/// It shares the state's array rather than copying what it needs, so that passing demand on costs no
/// allocation.
@usableFromInline
struct ZipTargets {
    @usableFromInline
    let all: [(any Subscription)?]

    @usableFromInline
    let excluded: Int?

    @inlinable
    init(all: [(any Subscription)?], excluded: Int?) {
        self.all = all
        self.excluded = excluded
    }

    /// No subscription.
    @inlinable
    static var none: ZipTargets { ZipTargets(all: [], excluded: nil) }

    /// Calls `body` with each subscription.
    @inlinable
    func forEach(_ body: (any Subscription) -> Void) {
        for (index, subscription) in all.enumerated() where index != excluded {
            if let subscription { body(subscription) }
        }
    }
}

/// The state of a zipping subscription (``ZipInner``), kept under its lock. Each method decides what
/// an event does and returns what must then be done outside the lock.
///
/// The rules are Combine's:
/// - Each request from downstream is passed on, as it is, to every upstream that has not finished.
///   Demand that downstream adds while a value from upstream `i` is being zipped and delivered (by
///   requesting, or by returning it from `receive(_:)`) goes back to upstream `i` as the result of
///   that `receive(_:)` instead.
/// - A tuple goes down as soon as every queue holds a value, whatever the outstanding demand: the
///   upstreams, asked for what downstream asked for, keep the tuples within it.
/// - The stream finishes once an upstream has finished with an empty queue (no further tuple is
///   possible), cancelling the upstreams still running. It fails with the first failure, cancelling
///   every upstream, the failing one included.
@usableFromInline
struct ZipState<Buffers: ZipBuffers, Failure: Error> {
    /// What happens to a value from upstream.
    @usableFromInline
    enum Arrival {
        /// Ignored: the stream has ended, or its upstream has finished.
        case dropped
        /// Queued, for a tuple not yet complete or for the thread holding the turn to deliver.
        case queued
        /// This thread took the turn and delivers this tuple, taken from the queues.
        case deliver(Buffers.Output)
        /// Another thread holds the turn; wait for it, then deliver.
        case wait
    }

    /// What the thread holding the turn does next.
    @usableFromInline
    enum Step {
        /// Deliver a tuple.
        case deliver(Buffers.Output)
        /// Cancel these upstreams, deliver `.finished`, then give the turn up.
        case finish(cancel: ZipTargets, released: Buffers)
        /// Deliver the failure, then give the turn up.
        case fail(Failure)
        /// Stop: the turn is given up, to this waiter if one is parked (wake it); `owed` is the
        /// demand to return to the upstream whose value started the delivery.
        case stop(TurnWaiter?, owed: Subscribers.Demand)
    }

    /// How the stream ends on a failure or a cancel.
    @usableFromInline
    struct Ending {
        /// Upstreams to cancel.
        @usableFromInline
        var cancel: ZipTargets

        /// Values dropped, to be released outside the lock.
        @usableFromInline
        var released: Buffers

        /// This thread took the turn and delivers the failure (otherwise the holder does).
        @usableFromInline
        var deliver: Bool

        @inlinable
        init(cancel: ZipTargets, released: Buffers, deliver: Bool) {
            self.cancel = cancel
            self.released = released
            self.deliver = deliver
        }
    }

    @usableFromInline
    var buffers = Buffers()

    /// Bit `i`: queue `i` holds a value.
    @usableFromInline
    var filled: UInt8 = 0

    /// Bit `i`: upstream `i` has finished.
    @usableFromInline
    var finished: UInt8 = 0

    /// Bit `i`: upstream `i` has sent its subscription (another is cancelled).
    @usableFromInline
    var subscribed: UInt8 = 0

    /// Every bit of an upstream.
    @usableFromInline
    let everyUpstream: UInt8

    /// Each upstream's subscription, from when it arrives until the upstream finishes. Empty once the
    /// stream has ended.
    @usableFromInline
    var subscriptions: [(any Subscription)?]

    /// Everything downstream asked for so far, asked of an upstream that subscribes late.
    @usableFromInline
    var requested = Subscribers.Demand.none

    /// Nothing more goes downstream: finished, failing or cancelled.
    @usableFromInline
    var isTerminal = false

    /// A failure for the thread holding the turn to deliver.
    @usableFromInline
    var pendingFailure: Failure?

    /// Which thread delivers to downstream, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    /// The upstream whose `receive(_:)` holds the turn, if one does.
    @usableFromInline
    var processing: Int?

    /// Demand added during `processing`, for its `receive(_:)` to return.
    @usableFromInline
    var owed = Subscribers.Demand.none

    @inlinable
    init() {
        let count = Buffers.upstreamCount
        everyUpstream = UInt8(truncatingIfNeeded: (1 << count) - 1)
        subscriptions = Array(repeating: nil, count: count)
    }

    /// Ends the stream: returns the running upstreams to cancel and the dropped values.
    @inlinable
    mutating func end() -> (cancel: ZipTargets, released: Buffers) {
        isTerminal = true
        let cancel = ZipTargets(all: subscriptions, excluded: nil)
        subscriptions = []
        var released = Buffers()
        swap(&released, &buffers)
        filled = 0
        return (cancel, released)
    }

    /// Upstream `index` sent `subscription`: returns the demand to ask of it, or `nil` to cancel it.
    @inlinable
    mutating func receive(subscription: any Subscription, index: Int) -> Subscribers.Demand? {
        let bit: UInt8 = 1 << index
        guard !isTerminal, subscribed & bit == 0 else { return nil }
        subscribed |= bit
        subscriptions[index] = subscription
        return requested
    }

    /// Upstream `index` sent a value, which `enqueue` adds to its queue.
    @inlinable
    mutating func receive(index: Int, thread: ThreadIdentity, enqueue: (inout Buffers) -> Void) -> Arrival {
        let bit: UInt8 = 1 << index
        guard !isTerminal, finished & bit == 0 else { return .dropped }
        enqueue(&buffers)
        filled |= bit
        guard filled == everyUpstream else { return .queued }
        if turn.isHeld { return turn.holder == thread ? .queued : .wait }
        turn.take(by: thread)
        processing = index
        let tuple = buffers.removeOldest()
        filled = buffers.nonEmpty
        return .deliver(tuple)
    }

    /// Upstream `index` finished: returns how the stream finishes, if it does now.
    @inlinable
    mutating func finish(index: Int, thread: ThreadIdentity) -> Step? {
        let bit: UInt8 = 1 << index
        guard !isTerminal, finished & bit == 0 else { return nil }
        finished |= bit
        subscriptions[index] = nil
        // While a thread holds the turn, it checks for the end before giving the turn up.
        guard !turn.isHeld, filled & bit == 0 else { return nil }
        turn.take(by: thread)
        let (cancel, released) = end()
        return .finish(cancel: cancel, released: released)
    }

    /// Upstream `index` failed: returns how the stream ends, unless it already has.
    @inlinable
    mutating func fail(_ failure: Failure, index: Int, thread: ThreadIdentity) -> Ending? {
        let bit: UInt8 = 1 << index
        guard !isTerminal, finished & bit == 0 else { return nil }
        let (cancel, released) = end()
        guard turn.takeIfFree(by: thread) else {
            pendingFailure = failure
            return Ending(cancel: cancel, released: released, deliver: false)
        }
        return Ending(cancel: cancel, released: released, deliver: true)
    }

    /// Downstream cancelled: returns the upstreams to cancel, unless the stream already ended.
    @inlinable
    mutating func cancel() -> (cancel: ZipTargets, released: Buffers)? {
        guard !isTerminal else {
            pendingFailure = nil
            return nil
        }
        return end()
    }

    /// Downstream asked for `demand` more: returns the upstreams to ask.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> ZipTargets {
        guard !isTerminal else { return .none }
        requested += demand
        if processing != nil { owed += demand }
        return ZipTargets(all: subscriptions, excluded: processing)
    }

    /// Gives the turn up. Returns the waiter it goes to, if any, and the demand owed to `processing`.
    @inlinable
    mutating func releaseTurn() -> (TurnWaiter?, owed: Subscribers.Demand) {
        let owed = self.owed
        self.owed = .none
        processing = nil
        return (turn.release(), owed)
    }

    /// For the thread holding the turn, after it delivered a tuple for which downstream returned no
    /// more demand: gives the turn up and returns the demand owed to `processing` when nothing else is
    /// due (no tuple complete, no completion, no thread waiting for the turn); otherwise returns `nil`
    /// and the thread carries on with ``next(after:)``.
    @inlinable
    mutating func endTurnIfIdle() -> Subscribers.Demand? {
        guard !isTerminal, filled != everyUpstream, finished & ~filled == 0, !turn.hasWaiters else { return nil }
        let owed = self.owed
        self.owed = .none
        processing = nil
        turn.releaseUncontended()
        return owed
    }

    /// For the thread holding the turn, after it delivered a tuple for which downstream returned
    /// `more`: returns the upstreams to ask for `more`, and what to do next.
    @inlinable
    mutating func next(after more: Subscribers.Demand) -> (ask: ZipTargets, step: Step) {
        let ask = more > 0 ? request(more) : .none
        if isTerminal {
            if let failure = pendingFailure.take() { return (ask, .fail(failure)) }
            let (waiter, owed) = releaseTurn()
            return (ask, .stop(waiter, owed: owed))
        }
        if filled == everyUpstream {
            let tuple = buffers.removeOldest()
            filled = buffers.nonEmpty
            return (ask, .deliver(tuple))
        }
        if finished & ~filled != 0 {
            // An upstream finished and its queue is empty: no tuple can follow.
            let (cancel, released) = end()
            return (ask, .finish(cancel: cancel, released: released))
        }
        let (waiter, owed) = releaseTurn()
        return (ask, .stop(waiter, owed: owed))
    }
}
