import Foundation

/// An observable object that wraps another and forwards its changes only when a snapshot of what the
/// observer uses has changed.
///
/// With a plain ``ObservableObject``, every change to any property notifies every observer. Wrap the
/// object once per observer, with a snapshot of just the properties that observer reads, and the
/// wrapper's `objectWillChange` fires only when that snapshot differs from the last one. Reads and
/// writes go through to the wrapped object by dynamic member lookup:
///
/// ```swift
/// final class AppState: ObservableObject {
///     @Published var value = 0
///     @Published var unrelated = 0
/// }
///
/// struct Snapshot: Equatable {
///     let value: Int
/// }
///
/// let appState = AppState()
/// let deduplicated = appState.deduplicated { Snapshot(value: $0.value) }
/// let cancellable = deduplicated.objectWillChange.sink { print("value changed") }
/// appState.unrelated += 1      // nothing is forwarded
/// deduplicated.value = 5       // forwarded once the run loop turns
/// ```
///
/// Nothing fires when the wrapper is created. There are two ways to compare:
/// - On a scheduler (the default is the main run loop, as in the original pattern): each change of
///   the wrapped object schedules one comparison, made after the change, and several changes in one
///   turn coalesce into at most one forwarded notification. Pass a test scheduler in tests.
/// - Synchronously: the wrapper listens to the wrapped object's
///   ``ObservableObject/objectDidChange`` and compares right after each change; no scheduler hop, one
///   notification per change of the snapshot. This needs the object's `@Published` properties to
///   change it (they send the did-change signal). When several threads write at once, a comparison
///   may run right after another thread's change instead, and see both changes: at most one
///   notification per change, never a lost final state.
@dynamicMemberLookup
public final class Deduplicated<Object: ObservableObject, Snapshot: Equatable>: ObservableObject {
    /// The wrapped object.
    public let object: Object

    /// Fires when the snapshot of the wrapped object has changed.
    public let objectWillChange = ObservableObjectPublisher()

    private let makeSnapshot: (Object) -> Snapshot
    private let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var lastSnapshot: Snapshot
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var comparisonScheduled = false
    private var subscription: AnyCancellable?

    /// Wraps an object, comparing snapshots on a scheduler after each change.
    ///
    /// - Parameters:
    ///   - object: The object to wrap.
    ///   - scheduler: Where to compare; changes made before the comparison runs coalesce.
    ///   - snapshot: What the observer uses of the object.
    public init<S: Scheduler>(_ object: Object, scheduler: S, snapshot: @escaping (Object) -> Snapshot) {
        self.object = object
        makeSnapshot = snapshot
        lastSnapshot = snapshot(object)
        subscription = object.objectWillChange.sink { [weak self] _ in
            guard let self, self.claimComparison() else { return }
            scheduler.schedule { [weak self] in self?.compare(releasingClaim: true) }
        }
    }

    /// Wraps an object, comparing snapshots right after each change.
    ///
    /// - Parameters:
    ///   - object: The object to wrap; its `@Published` properties send the did-change signal this
    ///     relies on.
    ///   - snapshot: What the observer uses of the object.
    public init(synchronouslyWrapping object: Object, snapshot: @escaping (Object) -> Snapshot) {
        self.object = object
        makeSnapshot = snapshot
        lastSnapshot = snapshot(object)
        subscription = object.objectDidChange.sink { [weak self] in self?.compare(releasingClaim: false) }
    }

    /// Reads a property of the wrapped object.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Object, Property>) -> Property {
        object[keyPath: keyPath]
    }

    /// Reads and writes a property of the wrapped object.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Object, Property>) -> Property {
        get { object[keyPath: keyPath] }
        set { object[keyPath: keyPath] = newValue }
    }

    /// The snapshot as of the last comparison.
    public var snapshot: Snapshot {
        lock.withLock { lastSnapshot }
    }

    /// Whether this change should schedule a comparison: only the first change before it runs.
    private func claimComparison() -> Bool {
        lock.withLock {
            guard !comparisonScheduled else { return false }
            comparisonScheduled = true
            return true
        }
    }

    private func compare(releasingClaim: Bool) {
        if releasingClaim { lock.withLock { comparisonScheduled = false } }
        let snapshot = makeSnapshot(object)
        let changed = lock.withLock { () -> Bool in
            guard snapshot != lastSnapshot else { return false }
            lastSnapshot = snapshot
            return true
        }
        if changed { objectWillChange.send() }
    }
}

extension Deduplicated {
    /// Wraps an object, comparing snapshots on the main run loop after each change, as the original
    /// pattern does.
    ///
    /// - Parameters:
    ///   - object: The object to wrap.
    ///   - snapshot: What the observer uses of the object.
    public convenience init(_ object: Object, snapshot: @escaping (Object) -> Snapshot) {
        self.init(object, scheduler: RunLoop.main, snapshot: snapshot)
    }
}

extension ObservableObject {
    /// Wraps this object so that its changes are forwarded only when `snapshot` differs, compared on
    /// the main run loop after each change.
    ///
    /// - Parameter snapshot: What the observer uses of the object.
    /// - Returns: An observable wrapper with dynamic member lookup to this object.
    public func deduplicated<Snapshot: Equatable>(
        _ snapshot: @escaping (Self) -> Snapshot
    ) -> Deduplicated<Self, Snapshot> {
        Deduplicated(self, snapshot: snapshot)
    }

    /// Wraps this object so that its changes are forwarded only when `snapshot` differs, compared on
    /// `scheduler` after each change.
    ///
    /// - Parameters:
    ///   - scheduler: Where to compare, such as a test scheduler in tests.
    ///   - snapshot: What the observer uses of the object.
    /// - Returns: An observable wrapper with dynamic member lookup to this object.
    public func deduplicated<Snapshot: Equatable, S: Scheduler>(
        on scheduler: S, _ snapshot: @escaping (Self) -> Snapshot
    ) -> Deduplicated<Self, Snapshot> {
        Deduplicated(self, scheduler: scheduler, snapshot: snapshot)
    }

    /// Wraps this object so that its changes are forwarded only when `snapshot` differs, compared
    /// synchronously right after each change.
    ///
    /// - Parameter snapshot: What the observer uses of the object.
    /// - Returns: An observable wrapper with dynamic member lookup to this object.
    public func deduplicatedSynchronously<Snapshot: Equatable>(
        _ snapshot: @escaping (Self) -> Snapshot
    ) -> Deduplicated<Self, Snapshot> {
        Deduplicated(synchronouslyWrapping: self, snapshot: snapshot)
    }
}
