/// The state of a `switchToLatest()` subscription: its outer publisher, the inner publisher it relays
/// now, downstream's outstanding demand and the turn for calling downstream.
///
/// A plain value kept under the owner's lock. Each method makes one decision and returns what the
/// owner must do once the lock is released: cancel a subscription, ask for values, call downstream
/// (holding the turn as the returned ``TurnEntry`` says) or nothing.
///
/// The rules are Combine's:
/// - Every new inner publisher replaces the current one, whose subscription is cancelled; whatever
///   the replaced publisher sends afterwards is ignored. A value that had to wait for another
///   thread's delivery is checked again once it has the turn, and dropped if its publisher was
///   replaced, or the stream cancelled, meanwhile; only a value already on its way down then still
///   arrives. A completion that waited for the turn is likewise dropped if downstream cancelled.
/// - Downstream's demand is counted here. An inner publisher is asked, when its subscription arrives,
///   for all the demand that its predecessors left unmet, and then for every further request.
/// - The stream finishes once the outer publisher has finished and the current inner publisher has
///   finished too (or there is none). A failure of either ends it at once: the outer one cancels the
///   current inner subscription, an inner one cancels the outer subscription.
/// - As in Combine, the outer publisher's completions are all passed on, even repeated ones, and the
///   current inner publisher's values still go down after the outer publisher's failure.
@usableFromInline
struct SwitchToLatestState: NestingTurnState {
    /// The outer publisher's subscription.
    @usableFromInline
    var outer = SubscriptionStatus.awaitingSubscription

    /// The outer publisher completed, normally or not.
    @usableFromInline
    var outerCompleted = false

    /// The current inner publisher's subscription, once it arrived and until that publisher ends or
    /// is replaced.
    @usableFromInline
    var inner: (any Subscription)?

    /// Which inner publisher is current: the count of inner publishers so far (0 before the first).
    @usableFromInline
    var innerIndex: UInt64 = 0

    /// The current inner publisher has not sent its subscription yet.
    @usableFromInline
    var awaitingInnerSubscription = false

    /// Downstream's outstanding demand.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Downstream cancelled, or an inner publisher failed: nothing more goes down.
    @usableFromInline
    var isCancelled = false

    /// Downstream cancelled: a completion still waiting for the turn is dropped.
    @usableFromInline
    var downstreamCancelled = false

    /// A completion went (or is going) down from an inner publisher's end or the outer finishing.
    @usableFromInline
    var sentCompletion = false

    /// Which thread calls downstream.
    @usableFromInline
    var turn = DeliveryTurn()

    @inlinable
    init() {}

    /// What to do with a value from an inner publisher.
    @usableFromInline
    enum Arrival {
        /// Ignore it: its publisher was replaced, or the stream was cancelled.
        case drop
        /// Deliver it holding the turn as the entry says (`.taken` or `.nested`): its demand is counted.
        case deliver(TurnEntry)
        /// Another thread holds the turn: wait for it, then ask again with
        /// ``resumeValue(from:)``.
        case wait
    }

    /// What to do with a value once the turn, waited for, is held.
    @usableFromInline
    enum Resumption {
        /// Deliver it, then give the turn up: its demand is counted.
        case deliver
        /// Ignore it: the turn has been given up, to this waiter if one was parked (wake it).
        case drop(TurnWaiter?)
    }

    /// What ending the stream asks of the owner.
    @usableFromInline
    struct Ending {
        /// Cancel this subscription first.
        @usableFromInline
        var cancel: (any Subscription)?
        /// Let go of this subscription without cancelling it (the publisher behind it has ended).
        @usableFromInline
        var release: (any Subscription)?
        /// Then pass the completion downstream, holding the turn as this says; `nil`: pass nothing.
        @usableFromInline
        var delivery: TurnEntry?

        @inlinable
        init(
            cancel: (any Subscription)? = nil, release: (any Subscription)? = nil, delivery: TurnEntry? = nil
        ) {
            self.cancel = cancel
            self.release = release
            self.delivery = delivery
        }
    }

    // MARK: Outer publisher

    /// Takes the outer subscription: true if the owner should ask it for unlimited values, false if it
    /// should cancel it (a second one, or one arriving after the stream ended).
    @inlinable
    mutating func receiveOuter(subscription: any Subscription) -> Bool {
        outer.accept(subscription)
    }

    /// Makes a new inner publisher current. Returns its index and the replaced publisher's subscription
    /// to cancel, or `nil` when the value is to be ignored.
    @inlinable
    mutating func receiveOuterValue() -> (index: UInt64, replaced: (any Subscription)?)? {
        guard !isCancelled, !outerCompleted else { return nil }
        innerIndex &+= 1
        awaitingInnerSubscription = true
        return (innerIndex, inner.take())
    }

    /// Records the outer publisher's completion. As in Combine, each one is passed on (unless the
    /// stream was cancelled); a normal one only once no inner publisher is pending or live.
    @inlinable
    mutating func receiveOuterCompletion(failed: Bool, thread: ThreadIdentity) -> Ending {
        let subscription = outer.terminate()
        outerCompleted = true
        guard !isCancelled else { return Ending(release: subscription) }
        if failed {
            sentCompletion = true
            return Ending(cancel: inner.take(), release: subscription, delivery: turn.enter(by: thread))
        }
        guard !awaitingInnerSubscription, inner == nil else { return Ending(release: subscription) }
        sentCompletion = true
        return Ending(release: subscription, delivery: turn.enter(by: thread))
    }

    // MARK: Inner publishers

    /// Takes an inner publisher's subscription: returns the demand to ask of it (which may be none),
    /// or `nil` if the owner should cancel it.
    @inlinable
    mutating func receiveInner(subscription: any Subscription, index: UInt64) -> Subscribers.Demand? {
        guard index == innerIndex, !isCancelled, inner == nil else { return nil }
        inner = subscription
        awaitingInnerSubscription = false
        return demand
    }

    /// Decides what happens to a value from an inner publisher, arriving on `thread`.
    @inlinable
    mutating func receiveValue(from index: UInt64, thread: ThreadIdentity) -> Arrival {
        guard index == innerIndex, !isCancelled else { return .drop }
        let entry = turn.enter(by: thread)
        if case .busy = entry { return .wait }
        takeDemandForValue()
        return .deliver(entry)
    }

    /// Decides again what happens to a value that waited for the turn and now holds it.
    @inlinable
    mutating func resumeValue(from index: UInt64) -> Resumption {
        guard index == innerIndex, !isCancelled else { return .drop(turn.release()) }
        takeDemandForValue()
        return .deliver
    }

    /// Counts a value that goes down against downstream's demand; one nobody asked for stops the
    /// program, as in Combine.
    @inlinable
    mutating func takeDemandForValue() {
        precondition(
            demand > 0, "SwitchToLatest received a value from its inner publisher with no outstanding demand")
        demand -= 1
    }

    /// Adds the demand downstream returned for a value from inner publisher `index`, and gives the
    /// turn up if the delivery took it (rather than nesting in an outer call).
    ///
    /// If that publisher was replaced while its value was being delivered, the one that replaced it
    /// was asked, when its subscription arrived, for the demand counted then, without this: its
    /// subscription, if it has arrived, is returned to be asked for `more` (else it will be asked for
    /// everything when it arrives). Otherwise the demand would go back only to the replaced
    /// publisher, and the stream could wait for ever.
    @inlinable
    mutating func delivered(
        more: Subscribers.Demand, from index: UInt64, releasingTurn: Bool
    ) -> (waiter: TurnWaiter?, successor: (any Subscription)?) {
        var successor: (any Subscription)?
        if more > 0 {
            demand += more
            if index != innerIndex { successor = inner }
        }
        return (releasingTurn ? turn.release() : nil, successor)
    }

    /// Records an inner publisher's completion. Its subscription is let go, not cancelled; a
    /// completion before that subscription stops the program, as in Combine.
    @inlinable
    mutating func receiveInnerCompletion(from index: UInt64, failed: Bool, thread: ThreadIdentity) -> Ending {
        guard index == innerIndex, !isCancelled else { return Ending() }
        precondition(
            !awaitingInnerSubscription, "SwitchToLatest's inner publisher completed before sending its subscription")
        let subscription = inner.take()
        guard !sentCompletion else { return Ending(release: subscription) }
        if failed {
            isCancelled = true
            sentCompletion = true
            return Ending(cancel: outer.terminate(), release: subscription, delivery: turn.enter(by: thread))
        }
        guard outerCompleted else { return Ending(release: subscription) }
        sentCompletion = true
        return Ending(release: subscription, delivery: turn.enter(by: thread))
    }

    // MARK: Downstream

    /// Adds downstream's request; returns the current inner subscription, to pass the request on to.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        demand += more
        return inner
    }

    /// Ends the stream for good: returns the inner subscription, then the outer one, to cancel.
    @inlinable
    mutating func cancel() -> (inner: (any Subscription)?, outer: (any Subscription)?) {
        isCancelled = true
        downstreamCancelled = true
        return (inner.take(), outer.terminate())
    }
}
