public import Synchronization

/// A Boolean that any thread may read without a lock: for "is the stream still live?" checks on the
/// value path, where taking a lock (and copying the guarded state) for every value would cost more
/// than the operator's own work.
///
/// Writers change it while holding their lock, alongside the state it summarizes; readers on the value
/// path load it with acquiring order, so whatever was written before a `true` is visible after it.
@usableFromInline
@frozen
package struct AtomicFlag: ~Copyable, Sendable {
    @usableFromInline
    let storage: Atomic<Bool>

    @inlinable
    package init(_ initialValue: Bool = false) {
        storage = Atomic(initialValue)
    }

    /// The current value.
    @inlinable
    package var value: Bool {
        storage.load(ordering: .acquiring)
    }

    /// Sets the value.
    @inlinable
    package func set(_ newValue: Bool) {
        storage.store(newValue, ordering: .releasing)
    }
}
