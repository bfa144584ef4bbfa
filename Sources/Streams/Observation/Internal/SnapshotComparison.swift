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

    @inlinable
    init(object: Object, makeSnapshot: @escaping (Object) -> Snapshot, changes: ObservableObjectPublisher) {
        self.object = object
        self.makeSnapshot = makeSnapshot
        self.changes = changes
        last = makeSnapshot(object)
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

    /// Takes a snapshot now and forwards if it differs from the last one; a scheduled comparison
    /// first lets later changes schedule another.
    @inlinable
    func compare(releasingClaim: Bool) {
        if releasingClaim { lock.withLock { comparisonScheduled = false } }
        receive(makeSnapshot(object))
    }

    /// Takes a snapshot made elsewhere, forwarding if it differs from the last one.
    @inlinable
    func receive(_ snapshot: Snapshot) {
        let changed = lock.withLock { () -> Bool in
            guard snapshot != last else { return false }
            last = snapshot
            return true
        }
        if changed { changes.send() }
    }
}
