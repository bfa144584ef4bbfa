/// The state of a flat-mapping subscription (`Publishers.FlatMap.Inner`), kept under its lock. Each
/// method decides what an event does and returns what must then be done outside the lock; the
/// calling thread's identity is passed in.
///
/// The rules are Combine's:
/// - Upstream is asked for `maxPublishers` publishers, and for one more each time a new publisher
///   finishes (unless `maxPublishers` is unlimited).
/// - Each new publisher is asked for one value at a time (one more for each of its values that goes
///   down), or for unlimited values once downstream's demand is unlimited.
/// - Values go down one at a time from the thread holding the ``DeliveryTurn``. A value that arrives
///   on that thread from inside a call to downstream goes down at once, nested in that call (unless
///   older values are buffered, or the thread is asking a new publisher for more). Any other value
///   that cannot go down yet, for want of demand, waits in `buffer`.
/// - The stream finishes once upstream and every new publisher have finished and the buffer is
///   empty; it fails with the first failure. A new publisher's failure cancels the other new
///   publishers but not upstream, whose subscription is only let go of.
@usableFromInline
struct FlatMapState<Output, Failure: Error> {
    /// A new publisher's place: subscribed to, or waiting for its subscription.
    @usableFromInline
    enum Child {
        case pending
        case subscribed(any Subscription)

        @inlinable
        var subscription: (any Subscription)? {
            if case .subscribed(let subscription) = self { return subscription }
            return nil
        }
    }

    /// What to do with a value from a new publisher.
    @usableFromInline
    enum Arrival {
        /// Ignore it: the stream has ended.
        case drop
        /// It was buffered; someone else delivers it, or more demand will.
        case buffered
        /// Deliver it now; the flag says downstream's demand is unlimited.
        case deliver(unlimited: Bool)
        /// It was buffered behind older values; drain them.
        case drain
        /// Another thread is emitting: wait for the turn.
        case wait
        /// This thread is emitting and is inside a call to downstream: deliver it there and then,
        /// as Combine does; the flag says downstream's demand is unlimited.
        case nested(unlimited: Bool)
    }

    /// How the stream ends on a failure or a cancel.
    @usableFromInline
    struct Ending {
        /// Subscriptions to cancel.
        @usableFromInline
        var cancel: [any Subscription]

        /// What the state held, to let go of outside the lock.
        @usableFromInline
        var released: Any

        /// This thread took the turn and delivers the failure (otherwise the holder does, or there is
        /// none to deliver).
        @usableFromInline
        var deliver: Bool

        @inlinable
        init(cancel: [any Subscription], released: Any, deliver: Bool) {
            self.cancel = cancel
            self.released = released
            self.deliver = deliver
        }
    }

    /// How many publishers upstream is asked for at first.
    @usableFromInline
    let maxPublishers: Subscribers.Demand

    @usableFromInline
    var upstreamStatus = SubscriptionStatus.awaitingSubscription

    /// Upstream finished normally.
    @usableFromInline
    var upstreamFinished = false

    /// The new publishers that have not finished, by index.
    @usableFromInline
    var children: [Int: Child] = [:]

    @usableFromInline
    var nextChildIndex = 0

    /// Downstream's outstanding demand.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Values waiting for demand or for the emitting thread, with the index of the publisher that
    /// sent each.
    @usableFromInline
    var buffer = FIFOQueue<(child: Int, value: Output)>()

    /// Which thread delivers to downstream, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    /// No more values go downstream (completed, failing or cancelled).
    @usableFromInline
    var isTerminal = false

    /// A failure for the emitting thread to deliver.
    @usableFromInline
    var pendingFailure: Failure?

    /// Downstream cancelled. Unlike a completion, this stops the values that new publishers still
    /// send.
    @usableFromInline
    var isCancelled = false

    /// The emitting thread is asking a new publisher for one more value, so a value that publisher
    /// sends back meanwhile is buffered rather than delivered in the middle.
    @usableFromInline
    var isRequestingFromChild = false

    /// Upstream's failure is cancelling the new publishers' subscriptions. Upstream calling again
    /// meanwhile is a re-entrant call Combine cannot survive.
    @usableFromInline
    var isCancellingForUpstreamFailure = false

    @inlinable
    init(maxPublishers: Subscribers.Demand) {
        self.maxPublishers = maxPublishers
    }

    // MARK: Upstream

    /// Upstream sent its subscription: returns how many publishers to ask it for, or `nil` to cancel
    /// it.
    @inlinable
    mutating func receiveUpstream(subscription: any Subscription) -> Subscribers.Demand? {
        guard !isTerminal, case .awaitingSubscription = upstreamStatus else { return nil }
        upstreamStatus = .subscribed(subscription)
        return maxPublishers
    }

    /// Upstream sent a value: returns the index of the new publisher to subscribe to, if any.
    @inlinable
    mutating func addChild() -> Int? {
        checkNotReenteredDuringUpstreamFailure()
        guard !isTerminal, upstreamStatus.subscription != nil else { return nil }
        let index = nextChildIndex
        nextChildIndex += 1
        children[index] = .pending
        return index
    }

    /// Upstream finished, even before its subscription, as Combine allows: returns whether the
    /// stream is still live (and may finish now).
    @inlinable
    mutating func upstreamDidFinish() -> Bool {
        checkNotReenteredDuringUpstreamFailure()
        upstreamStatus = .terminal
        upstreamFinished = true
        return !isTerminal
    }

    /// Upstream failed: returns whether the stream is still live (and fails now).
    @inlinable
    func upstreamMayFail() -> Bool {
        checkNotReenteredDuringUpstreamFailure()
        return !isTerminal
    }

    /// Stops the program when upstream calls again while its failure is cancelling the new
    /// publishers: Combine stops there too.
    @inlinable
    func checkNotReenteredDuringUpstreamFailure() {
        precondition(
            !isCancellingForUpstreamFailure,
            "FlatMap's upstream sent an event while its failure was still cancelling the new publishers"
        )
    }

    // MARK: New publishers

    /// New publisher `index` sent `subscription`: returns what to ask of it, or `nil` to cancel it.
    @inlinable
    mutating func receive(subscription: any Subscription, child index: Int) -> Subscribers.Demand? {
        guard !isTerminal, case .pending? = children[index] else { return nil }
        children[index] = .subscribed(subscription)
        return demand == .unlimited ? .unlimited : .max(1)
    }

    /// What to do with a value from new publisher `index`. `holdingTurn` says the caller waited for
    /// the turn and holds it now.
    ///
    /// As in Combine, a value is delivered whenever there is demand, even from a publisher that has
    /// finished. Once the stream has ended, only a value sent from inside the call that ends it (on
    /// the same thread) still goes down, as in Combine; values from other threads racing the end are
    /// dropped, so downstream sees nothing after the completion it has returned from.
    @inlinable
    mutating func arrive(_ input: Output, child index: Int, thread: ThreadIdentity, holdingTurn: Bool) -> Arrival {
        guard !isCancelled else { return .drop }
        if !holdingTurn, turn.isHeld, turn.holder != thread { return .wait }
        let reentrant = !holdingTurn && turn.isHeld
        if reentrant, !isRequestingFromChild, buffer.isEmpty, demand > 0 {
            let unlimited = demand == .unlimited
            demand -= 1
            return .nested(unlimited: unlimited)
        }
        guard !isTerminal else { return .drop }
        let mayEmit = holdingTurn || !turn.isHeld
        if mayEmit, buffer.isEmpty, demand > 0 {
            if !holdingTurn { turn.take(by: thread) }
            let unlimited = demand == .unlimited
            demand -= 1
            return .deliver(unlimited: unlimited)
        }
        buffer.append((index, input))
        guard mayEmit, demand > 0 else { return .buffered }
        if !holdingTurn { turn.take(by: thread) }
        return .drain
    }

    /// Downstream returned `more` for a value delivered nested in an outer delivery.
    @inlinable
    mutating func add(_ more: Subscribers.Demand) {
        if more > 0 { demand += more }
    }

    /// New publisher `index` finished: returns `nil` once the stream has ended, else the upstream
    /// subscription to ask for one more publisher (`nil` inside when none is to be asked).
    @inlinable
    mutating func childDidFinish(_ index: Int) -> (any Subscription)?? {
        guard !isTerminal else { return nil }
        // As in Combine, every completion asks upstream for one more publisher, even a repeated one.
        children.removeValue(forKey: index)
        guard maxPublishers != .unlimited else { return .some(nil) }
        return .some(upstreamStatus.subscription)
    }

    /// New publisher `index` failed: returns whether its failure ends the stream.
    @inlinable
    func childMayFail(_ index: Int) -> Bool {
        !isTerminal && children[index] != nil
    }

    /// Ends the stream with `failure`, from upstream (`failedChild` is `nil`) or from a new
    /// publisher: returns what to cancel and whether this thread delivers the failure.
    @inlinable
    mutating func fail(_ failure: Failure, sparing failedChild: Int?, thread: ThreadIdentity) -> Ending? {
        guard !isTerminal else { return nil }
        isTerminal = true
        var cancel: [any Subscription] = []
        for (index, child) in children where index != failedChild {
            if let subscription = child.subscription { cancel.append(subscription) }
        }
        if failedChild == nil, !cancel.isEmpty { isCancellingForUpstreamFailure = true }
        let released: Any = (children, buffer, upstreamStatus)
        children = [:]
        buffer = FIFOQueue()
        upstreamStatus = .terminal
        guard turn.takeIfFree(by: thread) else {
            pendingFailure = failure
            return Ending(cancel: cancel, released: released, deliver: false)
        }
        return Ending(cancel: cancel, released: released, deliver: true)
    }

    // MARK: Delivery

    /// The next step of the thread holding the turn, given the demand downstream returned for the
    /// value delivered before.
    @inlinable
    mutating func next(adding added: Subscribers.Demand) -> DrainStep<Output, Failure> {
        isRequestingFromChild = false
        if isTerminal {
            if let failure = pendingFailure.take() { return .fail(failure) }
            return .stop(turn.release())
        }
        if added > 0 { demand += added }
        if demand > 0, let (child, value) = buffer.popFirst() {
            demand -= 1
            let source = demand == .unlimited ? nil : children[child]?.subscription
            isRequestingFromChild = source != nil
            return .deliver(value, source)
        }
        if upstreamFinished, children.isEmpty, buffer.isEmpty {
            isTerminal = true
            return .finish
        }
        return .stop(turn.release())
    }

    // MARK: Downstream

    /// Downstream asked for `more`: returns whether this thread took the turn to drain, and the new
    /// publishers to ask for unlimited values now that demand became unlimited.
    @inlinable
    mutating func request(
        _ more: Subscribers.Demand, thread: ThreadIdentity
    ) -> (drain: Bool, unleash: [any Subscription]) {
        guard !isTerminal else { return (false, []) }
        let wasUnlimited = demand == .unlimited
        demand += more
        let unleash = !wasUnlimited && demand == .unlimited ? children.values.compactMap(\.subscription) : []
        return (turn.takeIfFree(by: thread), unleash)
    }

    /// Downstream cancelled: returns what to cancel, unless the stream already ended. A failure still
    /// waiting for the thread that holds the turn is dropped: once `cancel()` has returned, nothing
    /// more goes down (as for merge).
    @inlinable
    mutating func cancel() -> Ending? {
        isCancelled = true
        guard !isTerminal else {
            pendingFailure = nil
            return nil
        }
        isTerminal = true
        var cancel = children.values.compactMap(\.subscription)
        if let upstream = upstreamStatus.subscription { cancel.append(upstream) }
        let released: Any = (children, buffer)
        children = [:]
        buffer = FIFOQueue()
        upstreamStatus = .terminal
        return Ending(cancel: cancel, released: released, deliver: false)
    }
}
