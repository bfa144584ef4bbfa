public import Synchronization

/// The lock every stateful type in Streams uses: a `Mutex` guarding no value of its own.
///
/// The state it guards lives in the owner's stored properties, read and written only inside
/// ``withLock(_:)``. Owners never call a subscriber, a closure or a scheduler while holding it.
@usableFromInline
@frozen
struct Lock: ~Copyable, Sendable {
    @usableFromInline
    let mutex = Mutex<Void>(())

    @inlinable
    init() {}

    /// Runs `body` with the lock held.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body() }
    }
}
