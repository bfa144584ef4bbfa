public import Observation
import Synchronization

/// The subscription of an ``ObservationPublisher``: it reads the tracked expression with observation
/// tracking installed, and when something read changes, schedules one read on the scheduler, which
/// re-installs tracking and hands the value downstream (or holds it until there is demand).
///
/// Observation signals a change before the new value is stored, so the value is never read in the
/// change handler: it is read on the scheduler, after the writer's turn. Deliveries are serialized
/// by a delivery turn (``ObservationDeliveryState``): a thread that finds another delivering leaves
/// its value for that thread, so no thread waits and nothing is delivered nested.
///
/// Subscriptions of `publisher(for:)` to the same property of the same model on the same scheduler
/// share the reading after each change (``SharedPropertyObservation``): each still makes its own
/// first read, and receives the shared reads from then on.
// @unchecked Sendable: `state`, `downstream`, `read`, `schedule` and `shared` are guarded by `lock`;
// the subscriber is called only by the thread holding the delivery turn.
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
        if let sharing, let read, let schedule {
            observation = SharedPropertyObservation.join(
                ObjectIdentifier(self), receiving: { [weak self] in self?.receiveShared($0) }, sharing: sharing,
                read: read, schedule: schedule)
            lock.withLock { self.shared = observation }
        }
        let value = (tracking ? readTracking() : readUntracked()) ?? nil
        lock.withLock {
            if value == nil || options.contains(.initial) { state.store(value) }
            if !tracking { state.finish() }
        }
        // Shared reads reach this subscription only once its first value is stored, so none is older.
        if let observation, observation.markReady(ObjectIdentifier(self)) { lock.withLock { state.finish() } }
        guard let downstream = lock.withLock({ self.downstream }) else { return }
        downstream.receive(subscription: self)
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
            return (downstream.take(), (read.take(), schedule.take()), shared.take())
        }
        released.2?.leave(ObjectIdentifier(self))
        // Released outside the lock: their deinitialization may call back in.
        _ = released
    }

    // MARK: Sharing

    @inlinable
    func receiveShared(_ value: Output?) {
        lock.withLock { state.store(value) }
        deliver()
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
        guard let value = readTracking() else { return }
        lock.withLock { state.store(value) }
        deliver()
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
        return ObservationTrackingToken.read(read, reportingTo: shared ?? self)
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
        var claim = true
        var finishing: SharedPropertyObservation<Output>?
        while true {
            let (delivery, target, released) = lock.withLock {
                () -> (ObservationDeliveryState<Output>.Delivery, Downstream?, Released?) in
                let delivery = state.nextDelivery(claim: claim)
                switch delivery {
                case .value: return (delivery, downstream, nil)
                case .finish:
                    finishing = shared.take()
                    return (delivery, downstream.take(), (read.take(), schedule.take()))
                case .none: return (delivery, nil, nil)
                }
            }
            claim = false
            switch delivery {
            case .value(let value):
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

/// What an observation tracking token reports to.
@usableFromInline
protocol ObservationTrackingTarget: AnyObject, Sendable {
    /// Something the last read read has changed (the new value is not stored yet).
    func changed()

    /// The last read's tracking was let go of without a change: whatever it read is gone, or it
    /// read nothing observable, so nothing will change any more.
    func trackingDropped()
}

extension ObservationTrackingToken {
    /// Reads `read` with tracking installed, reporting to `target`, and returns what it read.
    ///
    /// Observation installs tracking only after the read has returned, so a write that lands between
    /// the read and the installation is neither read nor announced. The read is therefore made twice:
    /// the second starts once the first one's tracking is installed, so it sees any write the first
    /// missed, and a write after the first installation is announced by it or by the second. The
    /// second read's value is returned; both installations report to `target`.
    @inlinable
    static func read<Value>(_ read: () -> Value, reportingTo target: any ObservationTrackingTarget) -> Value {
        let first = ObservationTrackingToken(target: target)
        _ = withObservationTracking(read, onChange: { [first] in first.fire() })
        let second = ObservationTrackingToken(target: target)
        return withObservationTracking(read, onChange: { [second] in second.fire() })
    }
}

/// What one installation of observation tracking captures in its change handler.
///
/// The models' registrars hold the handler, and with it this token, until the first change (the
/// handler runs, then is let go of) or until the models are deallocated (the handler is let go of
/// without running). The token tells its target which of the two happened; it holds the target
/// weakly, so a cancelled subscription is freed even while a model still holds its handler.
@usableFromInline
final class ObservationTrackingToken: Sendable {
    private let fired = Atomic<Bool>(false)
    private weak let target: (any ObservationTrackingTarget)?

    @usableFromInline
    init(target: any ObservationTrackingTarget) {
        self.target = target
    }

    /// Runs in the change handler, on the thread that is about to store a new value.
    @usableFromInline
    func fire() {
        fired.store(true, ordering: .sequentiallyConsistent)
        target?.changed()
    }

    deinit {
        if !fired.load(ordering: .sequentiallyConsistent) {
            target?.trackingDropped()
        }
    }
}
