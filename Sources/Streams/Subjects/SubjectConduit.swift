/// The subscription a subject hands each subscriber: it tracks that subscriber's demand and holds the
/// subscriber until the subscription ends.
///
/// The subject keeps conduits of every subscriber type in one list, so it reaches the subscriber
/// through `deliverValue` and `deliverCompletion`: functions of the subclass that knows the
/// subscriber's type. They capture nothing, and they are formed where that type is concrete, so the
/// delivery path is specialized code.
///
/// Its decisions (demand, the current value owed, a completion held, whether it lives) are a
/// ``SubjectConduitState``, guarded by `lock`; the conduit keeps the lock, the flags delivery reads
/// without it, and does what the state decides. The subscriber belongs to the subject's delivering thread:
/// only that thread calls it, and it is let go with the subject's lock held, by that thread or while
/// no thread delivers. So delivery reads it without a lock and without retaining it.
@usableFromInline
class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    /// Delivers a value if the subscriber has demand (and, for the current value, is still owed it);
    /// returns the subscriber's additional demand, or `nil` if nothing was delivered.
    @usableFromInline
    typealias ValueDelivery = (SubjectConduit, Output, _ isCurrentValue: Bool) -> Subscribers.Demand?

    /// Ends the subscription and delivers the completion, unless it had already ended.
    @usableFromInline
    typealias CompletionDelivery = (SubjectConduit, Subscribers.Completion<Failure>) -> Void

    /// Ends the subscription: the subject forgets the subscriber and lets go of it.
    @usableFromInline
    typealias Cancellation = (SubjectConduit) -> Void

    @usableFromInline
    final let lock = Lock()

    /// The subject's broadcaster, used only while `owner` keeps it alive: set, under `lock`, or taken
    /// out of the conduit and held by the caller. Not retained, so that a subscription costs one
    /// retain, and used through ``withBroadcaster(_:)``, so that using it costs none.
    @usableFromInline
    final let attachedBroadcaster: Unmanaged<SubjectBroadcaster<Output, Failure>>

    /// Runs `body` with the broadcaster, without retaining it. Call it only while `owner` keeps the
    /// broadcaster alive.
    @inlinable
    final func withBroadcaster<Result>(_ body: (SubjectBroadcaster<Output, Failure>) -> Result) -> Result {
        attachedBroadcaster._withUnsafeGuaranteedRef(body)
    }

    /// Guarded by `lock`: the subscription's decisions.
    @usableFromInline
    @exclusivity(unchecked)
    final var state: SubjectConduitState

    /// Guarded by `lock`; `nil` once the state has ended. What keeps the broadcaster alive for this
    /// subscription: the subject itself, which its subscriptions keep alive as Combine's do, or, for a
    /// publisher whose subscriptions keep nothing else, the broadcaster.
    @usableFromInline
    @exclusivity(unchecked)
    final var owner: AnyObject?

    /// The broadcaster, while the subscription lives. Read with `lock` held.
    @inlinable
    final var broadcaster: SubjectBroadcaster<Output, Failure>? {
        state.isLive ? attachedBroadcaster.takeUnretainedValue() : nil
    }

    /// Whether `demand` has become unlimited, readable without the lock: adding demand to an unlimited
    /// demand changes nothing, so `addDemand` returns at once (a filtering subscriber returns `.max(1)`
    /// for every value it drops).
    @usableFromInline
    final let hasUnlimitedDemand = AtomicFlag()

    /// The state's ``SubjectConduitState/deliversFreely``, readable without the lock: set with `lock`
    /// held when the state says so, cleared when it ends.
    @usableFromInline
    final let deliversFreely: AtomicFlag

    /// The thread that attaches the subscriber and hands it its subscription. Until the subscriber
    /// has returned from `receive(subscription:)`, a completion sent from another thread waits in
    /// `heldCompletion`, so that the subscriber never receives its completion before, or while, it
    /// receives its subscription (an operator that ignores a completion coming first would never
    /// end). One sent on this thread, from inside `receive(subscription:)`, goes down nested there,
    /// as in Combine.
    @usableFromInline
    final let attachingThread = ThreadIdentity.current

    /// Guarded by `lock`: a completion that came before the subscriber had its subscription. Boxed,
    /// so that no stored property's size depends on `Failure`: then letting go of a conduit, in
    /// code that is not specialized, needs no run-time type lookup.
    @usableFromInline
    @exclusivity(unchecked)
    final var heldCompletion: HeldCompletion<Failure>?

    /// Guarded by the subject's lock: this conduit's place in the subscriber list.
    @usableFromInline
    @exclusivity(unchecked)
    final var slot = -1

    /// The subscriber's box, retained; `nil` once let go. Read by the subject's delivering thread;
    /// changed with the subject's lock held, by that thread or while no thread delivers.
    @usableFromInline
    @exclusivity(unchecked)
    final var downstreamStorage: UnsafeMutableRawPointer?

    /// Which publisher the subscription belongs to.
    @inlinable
    final var kind: SubjectKind { state.kind }

    @usableFromInline
    final let deliverValue: ValueDelivery

    @usableFromInline
    final let deliverCompletion: CompletionDelivery

    /// Cancellation, formed where the subscriber's type is concrete: `cancel()` arrives through
    /// `any Subscription`, and running it as specialized code spares the run-time type lookups that
    /// generic code would make.
    @usableFromInline
    final let cancellation: Cancellation

    @inlinable
    init(
        broadcaster: __shared SubjectBroadcaster<Output, Failure>, subject: AnyObject?, downstream: AnyObject,
        deliverValue: @escaping ValueDelivery, deliverCompletion: @escaping CompletionDelivery,
        cancellation: @escaping Cancellation
    ) {
        // Everything is read from the subject before it is stored: reading it after the store led
        // the optimizer to pass the arguments borrowed, adding a retain and release per subscription.
        state = SubjectConduitState(kind: broadcaster.kind, keepsCurrentValue: broadcaster.keepsCurrentValue)
        deliversFreely = AtomicFlag()
        attachedBroadcaster = Unmanaged.passUnretained(broadcaster)
        owner = subject ?? broadcaster
        downstreamStorage = Unmanaged.passRetained(downstream).toOpaque()
        self.deliverValue = deliverValue
        self.deliverCompletion = deliverCompletion
        self.cancellation = cancellation
    }

    deinit {
        takeDownstream()?.release()
    }

    /// Removes the subscriber's box and hands over its retain. Call with the subject's lock held.
    @inlinable
    final func takeDownstream() -> Unmanaged<AnyObject>? {
        guard let storage = downstreamStorage else { return nil }
        downstreamStorage = nil
        return Unmanaged.fromOpaque(storage)
    }

    /// Ends the subscription's life as far as demand goes. Call with `lock` held; returns the owner
    /// that kept the broadcaster alive, or `nil` if it had already ended. While the caller holds it,
    /// ``withBroadcaster(_:)`` may be used; it is let go of once the lock is released.
    @inlinable
    final func endLocked() -> AnyObject? {
        state.end() ? releaseOwnerLocked() : nil
    }

    /// Stops delivering freely and hands over the owner, once the state has ended. Call with `lock`
    /// held.
    @inlinable
    final func releaseOwnerLocked() -> AnyObject? {
        deliversFreely.set(false)
        return owner.take()
    }

    /// Sets ``deliversFreely`` if the state now says so. Call with `lock` held.
    @inlinable
    final func updateDeliversFreelyLocked() {
        if state.deliversFreely { deliversFreely.set(true) }
    }

    /// Takes one unit of demand for a value about to be delivered (see
    /// ``SubjectConduitState/takeDemand(forCurrentValue:onAttachingThread:)``). Call with `lock` held.
    @inlinable
    final func takeDemandLocked(forCurrentValue: Bool) -> Bool {
        guard state.takeDemand(forCurrentValue: forCurrentValue, onAttachingThread: attachingThread == .current)
        else { return false }
        if state.demand == .unlimited { updateDeliversFreelyLocked() }
        return true
    }

    /// Adds demand; a current-value subject then delivers its value if the subscriber is owed it, and
    /// a passthrough subject learns of its first demand.
    @inlinable
    final func addDemand(_ more: Subscribers.Demand) {
        if hasUnlimitedDemand.value { return }
        let outcome = lock.withLock { () -> DemandOutcome in
            let step = state.addDemand(more)
            if state.isLive, state.demand == .unlimited {
                hasUnlimitedDemand.set(true)
                updateDeliversFreelyLocked()
            }
            switch step {
            case .none:
                return .none
            case .acknowledge:
                // Reads the unowned reference rather than binding one: binding would retain the
                // subject on every request, while only a passthrough subject's first demand needs it.
                let acknowledged = withBroadcaster { $0.hasDownstreamDemand.value }
                return acknowledged ? .none : .acknowledge(attachedBroadcaster.takeUnretainedValue())
            case .sendCurrentValue:
                return .sendCurrentValue
            }
        }
        switch outcome {
        case .none: return
        case .acknowledge(let broadcaster): broadcaster.acknowledgeDownstreamDemand()
        case .sendCurrentValue:
            if let broadcaster = lock.withLock({ broadcaster }) { broadcaster.sendCurrentValue(to: self) }
        }
    }

    /// What `addDemand` does once the demand is recorded.
    @usableFromInline
    enum DemandOutcome {
        /// Nothing more.
        case none
        /// Tell the passthrough subject of its first demand.
        case acknowledge(SubjectBroadcaster<Output, Failure>)
        /// Deliver the current value the subscriber is owed.
        case sendCurrentValue
    }

    /// Called once the subscriber has returned from `receive(subscription:)`: from now on its
    /// completion goes to it at once, and one that came meanwhile goes to it now; an observable
    /// object's publisher delivers to it every change from now on.
    @inlinable
    final func subscriptionDelivered() {
        let held = lock.withLock { () -> Subscribers.Completion<Failure>? in
            state.subscriptionDelivered()
            updateDeliversFreelyLocked()
            return heldCompletion.take()?.completion
        }
        if let held { deliverCompletion(self, held) }
    }

    @inlinable
    final func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        addDemand(demand)
    }

    /// Ends the subscription: the subject forgets the subscriber and sends it nothing more.
    @inlinable
    final func cancel() {
        cancellation(self)
    }

    /// Whether a value may go to the subscriber now: at once while the subscription delivers freely,
    /// otherwise if it takes a unit of demand (see ``takeDemandLocked(forCurrentValue:)``). Called by
    /// the subject's delivering thread.
    @inlinable
    final func admitsValue(isCurrentValue: Bool) -> Bool {
        if !isCurrentValue, deliversFreely.value { return true }
        return lock.withLock { takeDemandLocked(forCurrentValue: isCurrentValue) }
    }

    /// Ends the subscription for a completion: returns what kept the subject alive and the subscriber's
    /// retained box, or `nil` if the subscription had already ended or the subscriber has not yet
    /// returned from `receive(subscription:)` on another thread (the completion then waits in
    /// `heldCompletion`). Called by the subject's delivering thread, or, for a held completion, by
    /// the thread that handed the subscriber its subscription, once it has.
    @inlinable
    final func endForCompletion(
        _ completion: Subscribers.Completion<Failure>
    ) -> (owner: AnyObject, downstream: Unmanaged<AnyObject>)? {
        let owner = lock.withLock { () -> AnyObject? in
            switch state.complete(onAttachingThread: attachingThread == .current) {
            case .hold:
                heldCompletion = HeldCompletion(completion)
                return nil
            case .deliver:
                return releaseOwnerLocked()
            case .drop:
                return nil
            }
        }
        guard let owner else { return nil }
        guard let storage = withBroadcaster({ $0.lock.withLock { takeDownstream() } }) else {
            withExtendedLifetime(owner) {}
            return nil
        }
        return (owner, storage)
    }

    /// Ends the subscription on cancel: the subject forgets the subscriber and lets go of it.
    @inlinable
    static func end(_ base: SubjectConduit) {
        guard let owner = base.lock.withLock({ base.endLocked() }) else { return }
        base.withBroadcaster { $0.remove(base) }
        withExtendedLifetime(owner) {}
    }

    /// Runs `read` on the subscriber's storage with the subject's lock held, for reflection.
    @inlinable
    final func withDownstreamForReflection(_ read: (UnsafeMutableRawPointer) -> Any) -> Any? {
        guard let broadcaster = lock.withLock({ broadcaster }) else { return nil }
        return broadcaster.lock.withLock { () -> Any? in
            guard let storage = downstreamStorage else { return nil }
            return read(storage)
        }
    }

    /// The subscriber, for reflection; overridden by the subclass that holds it.
    @usableFromInline
    var downstreamForReflection: Any? { nil }

    @usableFromInline
    final var description: String { kind.subscriptionDescription }

    @usableFromInline
    final var customMirror: Mirror {
        if kind == .observableObject {
            return Mirror(self, children: ["downstream": downstreamForReflection as Any])
        }
        let (owner, demand) = lock.withLock { (self.owner, state.demand) }
        let children: [Mirror.Child] = [
            ("parent", owner as Any),
            ("downstream", downstreamForReflection as Any),
            ("demand", demand),
            ("subject", owner as Any),
        ]
        return Mirror(self, children: children)
    }

    @usableFromInline
    final var playgroundDescription: Any { description }
}

/// The conduit of one subscriber type, held in a ``SubscriberBox``. A ``Subscribers/Sink`` has a
/// conduit of its own, ``SubjectSinkConduit``.
@usableFromInline
final class SubjectConduitTo<Downstream: Subscriber>: SubjectConduit<Downstream.Input, Downstream.Failure> {
    @usableFromInline
    typealias Box = SubscriberBox<Downstream>

    @inlinable
    init(
        broadcaster: __shared SubjectBroadcaster<Downstream.Input, Downstream.Failure>, subject: AnyObject?,
        downstream: Downstream
    ) {
        super.init(
            broadcaster: broadcaster,
            subject: subject,
            downstream: Box(downstream),
            deliverValue: { SubjectConduitTo.deliverValue($0, $1, $2) },
            deliverCompletion: { SubjectConduitTo.deliverCompletion($0, $1) },
            cancellation: { SubjectConduit.end($0) })
    }

    /// Delivers a value; called by the subject's delivering thread only.
    @inlinable
    static func deliverValue(
        _ base: SubjectConduit<Downstream.Input, Downstream.Failure>, _ value: Downstream.Input, _ isCurrentValue: Bool
    ) -> Subscribers.Demand? {
        guard base.admitsValue(isCurrentValue: isCurrentValue), let storage = base.downstreamStorage else { return nil }
        return Unmanaged<Box>.fromOpaque(storage)._withUnsafeGuaranteedRef { box in
            box.subscriber.receive(value)
        }
    }

    /// Ends the subscription and delivers the completion (see ``SubjectConduit/endForCompletion(_:)``).
    @inlinable
    static func deliverCompletion(
        _ base: SubjectConduit<Downstream.Input, Downstream.Failure>,
        _ completion: Subscribers.Completion<Downstream.Failure>
    ) {
        guard let (owner, storage) = base.endForCompletion(completion) else { return }
        // The subject lives until its completion has been delivered, as in Combine.
        defer { withExtendedLifetime(owner) {} }
        let box = Unmanaged<Box>.fromOpaque(storage.toOpaque()).takeRetainedValue()
        box.subscriber.receive(completion: completion)
    }

    @usableFromInline
    override var downstreamForReflection: Any? {
        withDownstreamForReflection { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().subscriber }
    }
}

/// A completion a conduit holds until its subscriber has its subscription.
@usableFromInline
final class HeldCompletion<Failure: Error> {
    @usableFromInline
    let completion: Subscribers.Completion<Failure>

    @inlinable
    init(_ completion: Subscribers.Completion<Failure>) {
        self.completion = completion
    }
}

/// Holds a subscriber in one object, so handing it out of a lock costs one retain.
@usableFromInline
final class SubscriberBox<S: Subscriber> {
    @usableFromInline
    let subscriber: S

    @inlinable
    init(_ subscriber: S) {
        self.subscriber = subscriber
    }
}
