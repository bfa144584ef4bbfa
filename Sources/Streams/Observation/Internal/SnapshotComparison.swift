/// The comparing half of a ``Deduplicated`` wrapper: the wrapped object, how to take its snapshot,
/// the last snapshot, and the wrapper's `objectWillChange`, which it fires when a snapshot differs.
///
/// The wrapper holds it, and so does the subscription that drives it; it never holds the wrapper.
/// So the subscription calls it directly, with no weak reference to load on every change, and
/// releasing the wrapper still ends the subscription (the wrapper holds its cancellable).
@usableFromInline
final class SnapshotComparison<Object: AnyObject, Snapshot: Equatable> {
    @usableFromInline
    let object: Object
    @usableFromInline
    let makeSnapshot: (Object) -> Snapshot
    /// The wrapper's `objectWillChange`.
    @usableFromInline
    let changes: ObservableObjectPublisher
    @usableFromInline
    let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var last: Snapshot
    /// Guarded by `lock`: whether a comparison is scheduled and has not started.
    @usableFromInline
    @exclusivity(unchecked)
    var comparisonScheduled = false
    /// Guarded by `lock`: comparisons run one at a time, so a snapshot taken later is never replaced
    /// by one taken earlier; one asked for while another thread compares is made by that thread.
    @usableFromInline
    @exclusivity(unchecked)
    var comparisons = RerunTurn()
    /// Guarded by `lock`: whether the next snapshot received is the first, taken when the wrapper is
    /// made, which is stored without notifying.
    @usableFromInline
    @exclusivity(unchecked)
    var awaitingFirst: Bool

    /// Takes the first snapshot now, or, with `firstReceived`, stores the first one received
    /// (``receive(_:)``) without notifying.
    @inlinable
    init(
        object: Object, makeSnapshot: @escaping (Object) -> Snapshot, changes: ObservableObjectPublisher,
        firstReceived: Bool = false
    ) {
        self.object = object
        self.makeSnapshot = makeSnapshot
        self.changes = changes
        last = makeSnapshot(object)
        awaitingFirst = firstReceived
    }

    /// The snapshot as of the last comparison.
    @inlinable
    var snapshot: Snapshot {
        lock.withLock { last }
    }

    /// Whether this change should schedule a comparison: only the first change before it runs.
    @inlinable
    func claimComparison() -> Bool {
        lock.withLock {
            guard !comparisonScheduled else { return false }
            comparisonScheduled = true
            return true
        }
    }

    /// Takes a snapshot now and forwards if it differs from the last one (without notifying when
    /// `notifying` is false, as when the wrapper is made); a scheduled comparison first lets later
    /// changes schedule another. A thread that finds another comparing leaves the comparison to it.
    @inlinable
    func compare(releasingClaim: Bool, notifying: Bool = true) {
        let compares = lock.withLock { () -> Bool in
            if releasingClaim { comparisonScheduled = false }
            return comparisons.claim()
        }
        guard compares else { return }
        var notifying = notifying
        while true {
            let snapshot = makeSnapshot(object)
            let (changed, again) = lock.withLock { () -> (Bool, Bool) in
                let changed = snapshot != last
                if changed { last = snapshot }
                return (changed, comparisons.finishRun())
            }
            if changed && notifying { changes.send() }
            guard again else { return }
            notifying = true
        }
    }

    /// Takes a snapshot made elsewhere, forwarding if it differs from the last one. Snapshots arrive
    /// one at a time, in the order they were taken.
    @inlinable
    func receive(_ snapshot: Snapshot) {
        let changed = lock.withLock { () -> Bool in
            let first = awaitingFirst
            awaitingFirst = false
            guard snapshot != last else { return false }
            last = snapshot
            return !first
        }
        if changed { changes.send() }
    }
}
