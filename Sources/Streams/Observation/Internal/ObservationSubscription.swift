import Synchronization

/// The subscription of an ``ObservationPublisher``: it reads the tracked expression with observation
/// tracking installed, and when something read changes, schedules one read on the scheduler, which
/// re-installs tracking and hands the value downstream (or holds it until there is demand).
///
/// The value is read on the scheduler, which the change handler schedules (on Apple platforms the
/// handler runs before the new value is stored; elsewhere after). Reads are serialized by a read
/// turn and deliveries by a delivery turn (``ObservationDeliveryState``): a thread that finds another
/// reading asks it to read again, and one that finds another delivering leaves its value for that
/// thread, so no thread waits, values never go backwards, and nothing is delivered nested.
///
/// Subscriptions of `publisher(for:)` to the same property of the same model on the same scheduler
/// share the reading after each change (``SharedPropertyObservation``): each still makes its own
/// first read, and receives the shared reads from then on. The shared observation holds its members
/// strongly; their subscribers hold an ``ObservationSubscriptionHandle``. A shared read goes straight
/// to a ``Subscribers/Sink`` that is idle with unlimited demand (``deliversFreely``), from the thread
/// running the observation's round; rounds run one at a time, and anything else clears the flag.
// @unchecked Sendable: `state`, `downstream`, `read`, `schedule` and `shared` are guarded by `lock`;
// the subscriber is called only by the thread holding the delivery turn or, while `deliversFreely`
// is set, by the thread running the shared observation's round.
@usableFromInline
final class ObservationSubscription<Downstream: Subscriber>: Subscription, ObservationTrackingTarget,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // see above
where Downstream.Failure == Never {
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let options: ObservationOptions
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    @usableFromInline
    var state = ObservationDeliveryState<Output>()
    /// Guarded by `lock`; `nil` once cancelled or finished.
    @exclusivity(unchecked)
    @usableFromInline
    var downstream: Downstream?
    /// Guarded by `lock`; `nil` once cancelled or finished, which lets go of what it captures.
    @exclusivity(unchecked)
    @usableFromInline
    var read: (() -> Output?)?
    /// Guarded by `lock`; `nil` once cancelled or finished.
    @exclusivity(unchecked)
    @usableFromInline
    var schedule: ((@escaping () -> Void) -> Void)?
    /// How to find an observation to share, if the publisher allows sharing.
    @usableFromInline
    let sharing: ObservationSharing?
    /// Guarded by `lock`: the shared observation this subscription is a member of, until it leaves.
    @exclusivity(unchecked)
    @usableFromInline
    var shared: SharedPropertyObservation<Output>?

    /// The subscriber `sink` makes, which the thread holding the delivery turn calls as the sink
    /// would, without its lock: ``sinkValue`` while the sink still has its closures.
    @usableFromInline
    typealias Sink = Subscribers.Sink<Output, Never>

    /// The subscriber, when it is a ``Subscribers/Sink``: kept for as long as the subscription lives
    /// (the sink lets go of the subscription when it is cancelled or completes).
    @usableFromInline
    let sink: Sink?

    /// The sink's value closure as it was when it subscribed, kept as the sink stores it; released
    /// with the subscription, which the sink lets go of once cancelled.
    @usableFromInline
    let sinkValue: Sink.ValueHandler?

    /// Set, with `lock` held, while the subscriber is a sink that has its subscription and unlimited
    /// demand, and nothing is held or being delivered (``ObservationDeliveryState/isIdleAndUnlimited``):
    /// a shared read's value then goes to the sink at once, by the thread running the shared
    /// observation's round (rounds run one at a time), with no lock. Cleared when anything else
    /// happens, so the values held meanwhile go through the delivery turn in order.
    @usableFromInline
    let deliversFreely = AtomicFlag()

    @inlinable
    init(
        read: @escaping () -> Output?, schedule: @escaping (@escaping () -> Void) -> Void,
        options: ObservationOptions, sharing: ObservationSharing?, downstream: Downstream
    ) {
        self.read = read
        self.schedule = schedule
        self.options = options
        self.sharing = options.contains(.new) ? sharing : nil
        self.downstream = downstream
        sink = Sink.matching(downstream)
        sinkValue = sink?.valueHandlerForDelivery
    }

    deinit {
        shared?.leave(ObjectIdentifier(self))
    }

    /// Reads the current value, tracking changes if `.new` is asked for, then hands the subscription
    /// downstream.
    @inlinable
    func start() {
        let tracking = options.contains(.new)
        var observation: SharedPropertyObservation<Output>?
        var armed = false
        // A member of a shared observation is held by it strongly, so that a round reaches it without
        // loading a weak reference (and the slower reference counting that comes with one); the
        // subscriber holds a handle instead, whose release ends the subscription, as the release of
        // one that observes alone does. Made first: if the subscriber never gets it, it ends it.
        var handle: ObservationSubscriptionHandle<Downstream>?
        if let sharing, let read, let schedule {
            let member = ObservationSubscriptionHandle(self)
            if let joined = SharedPropertyObservation.join(
                ObjectIdentifier(self), receiving: { self.receiveShared($0) }, sharing: sharing,
                read: read, schedule: schedule)
            {
                handle = member
                observation = joined.observation
                armed = joined.armed
                lock.withLock { self.shared = joined.observation }
            } else {
                member.disown()
            }
        }
        // Changes announced during the first read ask this thread to read again, so the value stored
        // last is the one read last.
        lock.withLock { state.beginFirstRead() }
        var first = true
        var again = true
        while again {
            // An armed shared observation announces the next change: this read needs no tracking.
            let value = (tracking && !armed ? readTracking() : readUntracked()) ?? nil
            again = lock.withLock {
                if value == nil || !first || options.contains(.initial) { state.store(value) }
                if !tracking { state.finish() }
                return state.endRead()
            }
            first = false
        }
        // Shared reads reach this subscription only once its first value is stored, so none is older.
        if let observation, observation.markReady(ObjectIdentifier(self)) { lock.withLock { state.finish() } }
        guard let downstream = lock.withLock({ self.downstream }) else { return }
        if let handle {
            downstream.receive(subscription: handle)
        } else {
            downstream.receive(subscription: self)
        }
        lock.withLock { state.markSubscribed() }
        deliver()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        lock.withLock { state.add(demand) }
        deliver()
    }

    @inlinable
    func cancel() {
        let released = lock.withLock { () -> (Downstream?, Released, SharedPropertyObservation<Output>?) in
            state.cancel()
            deliversFreely.set(false)
            return (downstream.take(), (read.take(), schedule.take()), shared.take())
        }
        released.2?.leave(ObjectIdentifier(self))
        // Released outside the lock: their deinitialization may call back in.
        _ = released
    }

    // MARK: Sharing

    @inlinable
    func receiveShared(_ value: Output?) {
        // The sink and its handler are constants of this subscription, used in place: binding them
        // would retain and release them.
        if let value, sink != nil, deliversFreely.value {
            sink.unsafelyUnwrapped.deliverDirectly(value, through: sinkValue)
            return
        }
        deliver(storing: value)
    }

    // MARK: Tracking

    @inlinable
    func changed() {
        let schedule = lock.withLock { state.changed() ? self.schedule : nil }
        schedule? { [weak self] in self?.scheduledRead() }
    }

    @inlinable
    func trackingDropped() {
        let schedule = lock.withLock { state.phase == .live ? self.schedule : nil }
        schedule? { [weak self] in self?.finishWhenDropped() }
    }

    @inlinable
    func scheduledRead() {
        guard lock.withLock({ state.beginScheduledRead() }) else { return }
        var again = true
        while again {
            let value = readTracking()
            again = lock.withLock {
                if let value { state.store(value) }
                return state.endRead()
            }
            deliver()
        }
    }

    @inlinable
    func finishWhenDropped() {
        lock.withLock { state.finish() }
        deliver()
    }

    /// Reads the expression with tracking installed: the next change of anything it reads calls
    /// ``changed()``, and if tracking is let go of without a change, ``trackingDropped()``.
    @inlinable
    func readTracking() -> Output?? {
        guard let (read, shared) = lock.withLock({ self.read.map { ($0, shared) } }) else { return nil }
        let (value, token) = ObservationTrackingToken.read(read, reportingTo: shared ?? self)
        shared?.arm(token)
        return value
    }

    @inlinable
    func readUntracked() -> Output?? {
        lock.withLock({ self.read }).map { $0() }
    }

    // MARK: Delivery

    /// Delivers what is held while there is demand, then the completion if finishing; returns at
    /// once if another thread holds the delivery turn (it delivers what this one left).
    @inlinable
    func deliver() {
        deliver(storing: nil, stores: false)
    }

    /// Stores a value read (see ``ObservationDeliveryState/store(_:)``), then delivers, taking the
    /// lock once for both.
    @inlinable
    func deliver(storing value: Output?) {
        deliver(storing: value, stores: true)
    }

    @inlinable
    func deliver(storing value: Output?, stores: Bool) {
        var stores = stores
        var claim = true
        var finishing: SharedPropertyObservation<Output>?
        while true {
            let (delivery, target, released) = lock.withLock {
                () -> (ObservationDeliveryState<Output>.Delivery, Downstream?, Released?) in
                if stores { state.store(value) }
                let delivery = state.nextDelivery(claim: claim)
                if sink != nil { deliversFreely.set(state.isIdleAndUnlimited) }
                switch delivery {
                // A sink is called through `sinkValue`, without taking the subscriber out.
                case .value: return (delivery, sink == nil ? downstream : nil, nil)
                case .finish:
                    finishing = shared.take()
                    return (delivery, downstream.take(), (read.take(), schedule.take()))
                case .none: return (delivery, nil, nil)
                }
            }
            claim = false
            stores = false
            switch delivery {
            case .value(let value):
                if sink != nil {
                    // The subscription is live (`nextDelivery` delivers nothing once cancelled), and
                    // keeps the sink and its closure: called as the sink would, with no lock.
                    sink.unsafelyUnwrapped.deliverDirectly(value, through: sinkValue)
                    continue
                }
                guard let target else { continue }
                let additional = target.receive(value)
                if additional > 0 { lock.withLock { state.add(additional) } }
            case .finish:
                // The expression and the scheduler are let go of outside the lock: releasing what the
                // expression captured may release a model, whose tracking token then calls back in.
                _ = released
                finishing?.leave(ObjectIdentifier(self))
                target?.receive(completion: .finished)
                return
            case .none:
                return
            }
        }
    }

    /// What a finished or cancelled subscription lets go of.
    @usableFromInline
    typealias Released = ((() -> Output?)?, ((@escaping () -> Void) -> Void)?)

    // MARK: Description

    @usableFromInline
    var description: String { "ObservationPublisher" }

    @usableFromInline
    var customMirror: Mirror {
        let demand = lock.withLock { state.demand }
        let children: [Mirror.Child] = [("options", options), ("demand", demand)]
        return Mirror(self, children: children)
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
