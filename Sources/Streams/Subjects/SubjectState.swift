/// Everything a subject decides, as one value: the turn, the work queued behind the delivery in
/// progress, the subscribers waiting to join, its completion and its upstream subscriptions.
///
/// It holds no lock and looks up no thread: ``SubjectBroadcaster`` keeps it under its lock, passes
/// the caller's thread in, and carries out what the methods return (deliver, wait for the turn, add
/// or remove a subscriber, release one) with the lock released where it calls out.
///
/// The subscriber list itself lives beside the state, in the broadcaster, because the thread holding
/// the turn reads it without the lock while it delivers: a call from another thread that changes the
/// state must not be an access to the list. The methods that depend on the list are given it to
/// read, and say how to change it rather than changing it.
@usableFromInline
struct SubjectState<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    @usableFromInline
    typealias SubscriberList = SubjectSubscriberList<Output, Failure>

    /// Work the thread holding the turn queued for itself from inside a delivery (and cancellations
    /// from any thread), done in order before it gives the turn up.
    @usableFromInline
    enum PendingWork {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        case currentValue(Conduit)
        case attach(Conduit)
        case detach(Conduit)
    }

    /// What the thread holding the turn does next.
    @usableFromInline
    enum Step {
        case work(PendingWork, currentValue: Output?)
        case handOver(TurnWaiter?)
    }

    /// Subscribers that attached from other threads while the turn was held. The holder adds them to
    /// the list between deliveries and before giving the turn up, so they are empty whenever the turn
    /// is free.
    @usableFromInline
    var arrivals = SubscriberList()

    /// Whether `completion` is set. A Boolean, so that code running unspecialized checks it without
    /// looking up the completion's type.
    @usableFromInline
    var isFinished = false

    /// Which thread delivers, and who waits for it.
    @usableFromInline
    var turn = DeliveryTurn()

    /// Work queued behind the delivery in progress, oldest at `pendingStart`.
    @usableFromInline
    var pending: [PendingWork] = []

    @usableFromInline
    var pendingStart = 0

    /// `pending.count`, kept as a plain integer for the same reason as `isFinished`.
    @usableFromInline
    var pendingEnd = 0

    /// The current value of a current-value subject, `nil` for a passthrough subject. It has storage
    /// of its own, owned by the broadcaster, rather than being an optional `Output`, so that code
    /// running unspecialized reads and writes it without looking up the optional's type.
    @usableFromInline
    let currentValue: UnsafeMutablePointer<Output>?

    /// Subscriptions received through `send(subscription:)`.
    @usableFromInline
    var upstreamSubscriptions: [any Subscription] = []

    /// Set once, by the first completion delivered. Its size depends on `Failure`, so it comes last:
    /// the fields before it sit at the same place for every subject, and code running unspecialized
    /// reaches them without looking up this type's layout.
    @usableFromInline
    var completion: Subscribers.Completion<Failure>?

    @inlinable
    init(currentValue: UnsafeMutablePointer<Output>?) {
        self.currentValue = currentValue
    }

    // MARK: Subscribers

    /// Where a subscriber that attaches goes.
    @usableFromInline
    enum Attachment {
        /// Into the list, now: no thread holds the turn.
        case now
        /// Into the list later, when the thread holding the turn gets to it.
        case later
        /// Nowhere: the subject has finished, with this completion.
        case finished(Subscribers.Completion<Failure>)
    }

    /// Where a subscriber that cancels is taken from.
    @usableFromInline
    enum Removal {
        /// From the list, now: no thread holds the turn. Then let go of it.
        case now
        /// It was still waiting to join, and is forgotten: let go of it.
        case fromArrivals
        /// From the list later, when the thread holding the turn gets to it.
        case later
    }

    /// A subscriber attaches: into the list now, or when the thread holding the turn gets to it, or
    /// not at all once the subject has finished. The caller's thread is looked at only while the
    /// turn is held.
    @inlinable
    mutating func attach(_ conduit: Conduit, thread: @autoclosure () -> ThreadIdentity) -> Attachment {
        if let completion { return .finished(completion) }
        if !turn.isHeld { return .now }
        if turn.holder == thread() {
            enqueue(.attach(conduit))
        } else {
            arrivals.append(conduit)
        }
        return .later
    }

    /// A subscriber cancels: it leaves the list now, or leaves the arrivals, or, while a thread holds
    /// the turn, leaves the list when that thread gets to it.
    @inlinable
    mutating func remove(_ conduit: Conduit) -> Removal {
        if arrivals.remove(conduit) { return .fromArrivals }
        if turn.isHeld {
            enqueue(.detach(conduit))
            return .later
        }
        return .now
    }

    /// Hands over the subscribers that attached from other threads, for the thread holding the turn
    /// to add to the list between deliveries.
    @inlinable
    mutating func takeArrivals() -> SubscriberList? {
        guard !arrivals.isEmpty else { return nil }
        let admitted = arrivals
        arrivals = SubscriberList()
        return admitted
    }

    // MARK: Upstream

    /// Keeps an upstream subscription; returns whether to ask it for everything at once (a
    /// current-value subject, or a passthrough one whose subscribers have asked for values).
    @inlinable
    mutating func add(upstream subscription: any Subscription, requestsAtOnce: Bool) -> Bool {
        upstreamSubscriptions.append(subscription)
        return requestsAtOnce
    }

    // MARK: Sending

    /// A value is sent: stores it as the current value where it should be, and says whether the
    /// caller delivers it, waits for the turn, or is done (queued behind the delivery in progress,
    /// nobody to deliver to, or finished).
    @inlinable
    @inline(__always)
    mutating func send(
        _ value: Output, thread: ThreadIdentity, storingAfterCompletion: Bool, subscribers: borrowing SubscriberList
    ) -> SubjectSendOutcome {
        guard !isFinished else {
            if storingAfterCompletion, let currentValue { currentValue.pointee = value }
            return .done
        }
        if !turn.isHeld {
            if let currentValue { currentValue.pointee = value }
            guard !subscribers.isEmpty else { return .done }
            turn.take(by: thread)
            return .deliver
        }
        guard turn.holder == thread else { return .wait }
        if let currentValue { currentValue.pointee = value }
        enqueue(.value(value))
        return .done
    }

    /// The caller, having waited, holds the turn for its value: stores it where it should, and says
    /// whether to deliver it.
    @inlinable
    mutating func sendAfterWaiting(
        _ value: Output, storingAfterCompletion: Bool, subscribers: borrowing SubscriberList
    ) -> Bool {
        guard !isFinished else {
            if storingAfterCompletion, let currentValue { currentValue.pointee = value }
            return false
        }
        if let currentValue { currentValue.pointee = value }
        return !subscribers.isEmpty
    }

    /// A completion is sent: finishes at once if it is queued behind the delivery in progress.
    @inlinable
    mutating func send(completion: Subscribers.Completion<Failure>, thread: ThreadIdentity) -> SubjectSendOutcome {
        guard !isFinished else { return .done }
        let outcome = claimTurn(by: thread, orQueue: .completion(completion))
        if case .done = outcome { markFinished(completion) }
        return outcome
    }

    /// The caller holds the turn for a completion: records it, and returns whether to complete the
    /// subscribers (not if the subject had already finished).
    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard !isFinished else { return false }
        markFinished(completion)
        return true
    }

    /// An update is to be applied: the caller takes the turn, waits for it, or, from inside a
    /// delivery on the delivering thread, applies it to the current value and sends the result as a
    /// value sent from there (queued).
    @inlinable
    mutating func beginUpdate(thread: ThreadIdentity) -> SubjectUpdateOutcome {
        guard !isFinished, currentValue != nil else { return .done }
        if !turn.isHeld {
            turn.take(by: thread)
            return .deliver
        }
        return turn.holder == thread ? .reentrant : .wait
    }

    /// The value an update starts from, `nil` once finished or for a passthrough subject.
    @inlinable
    var valueToUpdate: Output? {
        guard !isFinished, let currentValue else { return nil }
        return currentValue.pointee
    }

    /// Stores an updated value.
    @inlinable
    mutating func store(updated value: Output) {
        currentValue?.pointee = value
    }

    /// Records the completion.
    @inlinable
    mutating func markFinished(_ completion: Subscribers.Completion<Failure>) {
        self.completion = completion
        isFinished = true
    }

    // MARK: The turn

    /// Takes the turn if it is free (`.deliver`); queues `work` if the calling thread holds it
    /// (`.done`); otherwise reports that another thread holds it (`.wait`).
    @inlinable
    mutating func claimTurn(by thread: ThreadIdentity, orQueue work: @autoclosure () -> PendingWork)
        -> SubjectSendOutcome
    {
        if !turn.isHeld {
            turn.take(by: thread)
            return .deliver
        }
        guard turn.holder == thread else { return .wait }
        enqueue(work())
        return .done
    }

    /// Queues work for the thread holding the turn.
    @inlinable
    mutating func enqueue(_ work: PendingWork) {
        pending.append(work)
        pendingEnd += 1
    }

    /// Gives the turn up at once if nothing is queued, nobody arrived and nobody waits (what most
    /// deliveries find); otherwise returns `false` and the holder goes on with
    /// ``next(subscribers:)``.
    @inlinable
    @inline(__always)
    mutating func releaseIfIdle() -> Bool {
        guard pendingStart == pendingEnd, arrivals.isEmpty, !turn.hasWaiters else { return false }
        turn.releaseUncontended()
        return true
    }

    /// Whether the holder adds the arrivals to the list before its next piece of work: before a
    /// delivery, which they are owed, and before giving the turn up (the arrivals are empty whenever
    /// the turn is free), but not before adding or removing a subscriber. A subscriber that arrives
    /// while the holder lets go of cancelled ones waits in the arrivals, where its own cancel takes
    /// it out at once, so subscribing and cancelling from other threads never keeps the holder busy.
    @inlinable
    var nextWorkAdmitsArrivals: Bool {
        guard pendingStart < pendingEnd else { return true }
        switch pending[pendingStart] {
        case .value, .completion, .currentValue: return true
        case .attach, .detach: return false
        }
    }

    /// The holder's next piece of queued work, with the current value if the work is to deliver it
    /// to a subscriber still in the list; or, when none is left, the turn given up and the waiter to
    /// wake. The holder has added the arrivals to the list first where ``nextWorkAdmitsArrivals``
    /// says so.
    @inlinable
    mutating func next(subscribers: borrowing SubscriberList) -> Step {
        guard pendingStart < pendingEnd else {
            if pendingStart > 0 {
                pending.removeAll(keepingCapacity: pending.capacity <= 64)
                pendingStart = 0
                pendingEnd = 0
            }
            return .handOver(turn.release())
        }
        let work = pending[pendingStart]
        pendingStart += 1
        if case .currentValue(let conduit) = work, subscribers.contains(conduit) {
            return .work(work, currentValue: currentValue?.pointee)
        }
        return .work(work, currentValue: nil)
    }
}

/// What a call to a subject does once it has looked at the subject's state.
///
/// Declared outside ``SubjectState`` so that it is one type for every subject: code running
/// unspecialized then returns it from the lock without looking up a generic type.
@usableFromInline
enum SubjectSendOutcome {
    /// Nothing more: the work was done, queued or dropped.
    case done
    /// The caller took the turn: deliver, then give the turn up.
    case deliver
    /// Another thread holds the turn: wait for it.
    case wait
}

/// What the caller of an update does next; declared outside the generic state, as
/// ``SubjectSendOutcome`` is.
@usableFromInline
enum SubjectUpdateOutcome {
    /// Nothing: the subject has finished, or keeps no current value.
    case done
    /// The caller took the turn: apply the update and deliver, then give the turn up.
    case deliver
    /// Another thread holds the turn: wait for it, then apply the update.
    case wait
    /// The caller is delivering: apply the update at once and send its result from there.
    case reentrant
}
