import Foundation
public import Observation

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
/// deduplicated.value = 5       // forwarded at once
/// // Prints: value changed
/// ```
///
/// Nothing fires when the wrapper is created. There are two ways to compare:
/// - Synchronously, the default (`object.deduplicated { … }`, `Deduplicated(object) { … }`): the
///   wrapper listens to the wrapped object's ``ObservableObject/objectDidChange`` and compares right
///   after each change; no scheduler, no run loop, one notification per change of the snapshot. It
///   works the same in an app, in a command-line tool and inside a test. This needs the object's
///   `@Published` properties to change it (they send the did-change signal). When several threads
///   write at once, a comparison may run right after another thread's change instead, and see both
///   changes: at most one notification per change, never a lost final state.
/// - On a scheduler you pass (`object.deduplicated(on: scheduler) { … }`,
///   `Deduplicated(object, scheduler:snapshot:)`), as the original pattern does on the main run loop:
///   each change of the wrapped object schedules one comparison, made after the change, and several
///   changes before it runs coalesce into at most one forwarded notification. Nothing is forwarded
///   until the scheduler runs the comparison: with `RunLoop.main`, only while the main run loop runs;
///   in tests, pass a test scheduler and advance it.
///
/// ## Wrapping an `@Observable` model
///
/// An `@Observable` model has no `objectWillChange`, and its observers already hear only about the
/// properties they read. What they still hear about are changes that leave what they *use* the
/// same: a derived value (a count, a flag, a formatted title) computed from properties that
/// changed. Wrapping the model gives such an observer an ``ObservableObject`` that fires only when
/// the snapshot differs:
///
/// ```swift
/// @Observable final class Inbox {
///     var messages: [String] = []
///     var isSyncing = false
/// }
///
/// let inbox = Inbox()
/// let scheduler = DispatchQueue.test
/// let badge = inbox.deduplicated(on: scheduler) { $0.messages.isEmpty }
/// let cancellable = badge.objectWillChange.sink { print("badge changed") }
/// inbox.messages.append("Hello")   // empty -> not empty
/// inbox.isSyncing = true           // not read by the snapshot: nothing is even scheduled
/// scheduler.advance()
/// inbox.messages.append("Again")   // still not empty: nothing is forwarded
/// scheduler.advance()
/// // Prints: badge changed
/// ```
///
/// The snapshot is tracked as an ``ObservationPublisher`` tracks its expression: a change of a
/// property it read schedules one comparison on the scheduler, where it is evaluated again, after the
/// write. There is no synchronous mode, since on Apple platforms Observation signals changes only
/// before they are stored, so a model is always wrapped on a scheduler you name: `RunLoop.main` in an app (where
/// comparisons run only while the main run loop runs), a test scheduler in tests. Without the
/// wrapper, the same deduplicated values are a publisher away:
/// `ObservationPublisher { Snapshot(inbox) }.removeDuplicates()`.
@dynamicMemberLookup
public final class Deduplicated<Object: AnyObject, Snapshot: Equatable>: ObservableObject {
    /// The wrapped object.
    public let object: Object

    /// Fires when the snapshot of the wrapped object has changed.
    public let objectWillChange = ObservableObjectPublisher()

    @usableFromInline
    let comparison: SnapshotComparison<Object, Snapshot>
    @usableFromInline
    var subscription: AnyCancellable?

    /// Wraps an object, comparing snapshots on a scheduler after each change.
    ///
    /// Nothing is forwarded until `scheduler` runs the comparison: with `RunLoop.main`, only while the
    /// main run loop runs; in tests, pass a test scheduler and advance it. Without a scheduler,
    /// ``init(_:snapshot:)`` compares synchronously.
    ///
    /// - Parameters:
    ///   - object: The object to wrap.
    ///   - scheduler: Where to compare; changes made before the comparison runs coalesce.
    ///   - snapshot: What the observer uses of the object.
    public init<S: Scheduler>(_ object: Object, scheduler: S, snapshot: @escaping (Object) -> Snapshot)
    where Object: ObservableObject {
        self.object = object
        let comparison = SnapshotComparison(object: object, makeSnapshot: snapshot, changes: objectWillChange)
        self.comparison = comparison
        subscription = object.objectWillChange.sink { _ in
            guard comparison.claimComparison() else { return }
            scheduler.schedule { comparison.compare(releasingClaim: true) }
        }
        // A change made between the first snapshot and subscribing is seen now, without notifying.
        comparison.compare(releasingClaim: false, notifying: false)
    }

    /// Wraps an object, comparing snapshots right after each change.
    ///
    /// The same as ``init(_:snapshot:)``, under the name it had when comparing on the main run loop
    /// was the default.
    ///
    /// - Parameters:
    ///   - object: The object to wrap; its `@Published` properties send the did-change signal this
    ///     relies on.
    ///   - snapshot: What the observer uses of the object.
    @inlinable
    public init(synchronouslyWrapping object: Object, snapshot: @escaping (Object) -> Snapshot)
    where Object: ObservableObject {
        self.object = object
        let comparison = SnapshotComparison(object: object, makeSnapshot: snapshot, changes: objectWillChange)
        self.comparison = comparison
        // Inlinable, so that each comparison runs specialized for the snapshot's type.
        subscription = object.objectDidChange.sink { comparison.compare(releasingClaim: false) }
        // A change made between the first snapshot and subscribing is seen now, without notifying.
        comparison.compare(releasingClaim: false, notifying: false)
    }

    /// Wraps an `@Observable` model, comparing snapshots on a scheduler after each change of a
    /// property the snapshot reads.
    ///
    /// ```swift
    /// @Observable final class Counter {
    ///     var count = 0
    /// }
    ///
    /// let counter = Counter()
    /// let scheduler = DispatchQueue.test
    /// let parity = Deduplicated(counter, scheduler: scheduler) { $0.count.isMultiple(of: 2) }
    /// let cancellable = parity.objectWillChange.sink { print("parity changed") }
    /// counter.count = 2
    /// scheduler.advance()   // still even: nothing
    /// counter.count = 3
    /// scheduler.advance()
    /// // Prints: parity changed
    /// ```
    ///
    /// Nothing is forwarded until `scheduler` runs the comparison: pass `RunLoop.main` in an app
    /// (comparisons then run only while the main run loop runs), a test scheduler in tests.
    ///
    /// - Parameters:
    ///   - object: The model to wrap.
    ///   - scheduler: Where to compare; changes made before the comparison runs coalesce.
    ///   - snapshot: What the observer uses of the model; the properties it reads are tracked.
    public init<S: Scheduler>(_ object: Object, scheduler: S, snapshot: @escaping (Object) -> Snapshot)
    where Object: Observable {
        self.object = object
        let comparison = SnapshotComparison(
            object: object, makeSnapshot: snapshot, changes: objectWillChange, firstReceived: true)
        self.comparison = comparison
        // The first value, read when subscribing, replaces the snapshot taken above without notifying:
        // a change made in between is not lost.
        let snapshots = ObservationPublisher(options: [.initial, .new], scheduler: scheduler, sharing: nil) {
            [weak object] in
            object.map(snapshot)
        }
        subscription = snapshots.sink { comparison.receive($0) }
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
        comparison.snapshot
    }
}

extension Deduplicated where Object: ObservableObject {
    /// Wraps an object, comparing snapshots synchronously, right after each change.
    ///
    /// ```swift
    /// final class Counter: ObservableObject {
    ///     @Published var count = 0
    /// }
    ///
    /// let counter = Counter()
    /// let parity = Deduplicated(counter) { $0.count.isMultiple(of: 2) }
    /// let cancellable = parity.objectWillChange.sink { print("parity changed") }
    /// counter.count = 2   // still even: nothing
    /// counter.count = 3
    /// // Prints: parity changed
    /// ```
    ///
    /// No scheduler or run loop is involved: the comparison runs when the object's `@Published`
    /// properties send ``ObservableObject/objectDidChange``, in an app, a command-line tool or a test
    /// alike. To compare on a scheduler, coalescing the changes made before it runs, use
    /// ``init(_:scheduler:snapshot:)-sepp``.
    ///
    /// - Parameters:
    ///   - object: The object to wrap; its `@Published` properties send the did-change signal this
    ///     relies on.
    ///   - snapshot: What the observer uses of the object.
    public convenience init(_ object: Object, snapshot: @escaping (Object) -> Snapshot) {
        self.init(synchronouslyWrapping: object, snapshot: snapshot)
    }
}

extension ObservableObject {
    /// Wraps this object so that its changes are forwarded only when `snapshot` differs, compared
    /// synchronously, right after each change.
    ///
    /// ```swift
    /// final class Inbox: ObservableObject {
    ///     @Published var messages: [String] = []
    ///     @Published var isSyncing = false
    /// }
    ///
    /// let inbox = Inbox()
    /// let badge = inbox.deduplicated { $0.messages.isEmpty }
    /// let cancellable = badge.objectWillChange.sink { print("badge changed") }
    /// inbox.isSyncing = true            // not in the snapshot: nothing
    /// inbox.messages.append("Hello")    // empty -> not empty
    /// // Prints: badge changed
    /// inbox.messages.append("Again")    // still not empty: nothing
    /// ```
    ///
    /// No scheduler or run loop is involved, so this works the same in a test or a command-line tool
    /// as in an app. The comparison runs when the object's `@Published` properties send
    /// ``ObservableObject/objectDidChange``. To compare on a scheduler instead, coalescing the changes
    /// made before it runs, use ``deduplicated(on:_:)``.
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
    /// Each change schedules one comparison, and the changes made before it runs coalesce into at most
    /// one notification. Nothing is forwarded until the scheduler runs it: with `RunLoop.main`, only
    /// while the main run loop runs; in tests, pass a test scheduler and advance it.
    ///
    /// - Parameters:
    ///   - scheduler: Where to compare, such as `RunLoop.main`, or a test scheduler in tests.
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
    /// The same as ``deduplicated(_:)``, under the name it had when comparing on the main run loop
    /// was the default.
    ///
    /// - Parameter snapshot: What the observer uses of the object.
    /// - Returns: An observable wrapper with dynamic member lookup to this object.
    public func deduplicatedSynchronously<Snapshot: Equatable>(
        _ snapshot: @escaping (Self) -> Snapshot
    ) -> Deduplicated<Self, Snapshot> {
        Deduplicated(synchronouslyWrapping: self, snapshot: snapshot)
    }
}

extension Observable where Self: AnyObject {
    /// Wraps this `@Observable` model so that an observer hears about changes only when `snapshot`
    /// differs, compared on `scheduler` after each change of a property it reads.
    ///
    /// On Apple platforms Observation signals a change before storing it, so the comparison cannot
    /// run synchronously: there is no variant without a scheduler. Nothing is forwarded until `scheduler` runs the
    /// comparison: pass `RunLoop.main` in an app (comparisons then run only while the main run loop
    /// runs), a test scheduler in tests.
    ///
    /// ```swift
    /// @Observable final class Inbox {
    ///     var messages: [String] = []
    /// }
    ///
    /// let inbox = Inbox()
    /// let scheduler = DispatchQueue.test
    /// let badge = inbox.deduplicated(on: scheduler) { $0.messages.count }
    /// let cancellable = badge.objectWillChange.sink { print("count changed") }
    /// inbox.messages = ["Hello"]
    /// scheduler.advance()
    /// // Prints: count changed
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: Where to compare: `RunLoop.main` in an app, a test scheduler in tests.
    ///   - snapshot: What the observer uses of the model.
    /// - Returns: An observable object whose `objectWillChange` fires when the snapshot changed, with
    ///   dynamic member lookup to this model.
    public func deduplicated<Snapshot: Equatable, S: Scheduler>(
        on scheduler: S, _ snapshot: @escaping (Self) -> Snapshot
    ) -> Deduplicated<Self, Snapshot> {
        Deduplicated(self, scheduler: scheduler, snapshot: snapshot)
    }
}
