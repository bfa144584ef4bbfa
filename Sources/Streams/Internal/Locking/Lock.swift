public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The lock every stateful type in Streams and StreamsTesting uses.
///
/// The state it guards lives in the owner's stored properties, read and written only inside
/// ``withLock(_:)``. Owners never call a subscriber, a closure or a scheduler while holding it, so
/// critical sections are a few instructions long.
///
/// On Darwin it is a `Mutex` (an unfair lock). Elsewhere it is a lock of its own, made of one atomic
/// word: acquire with a compare-and-exchange, release with a store, and under contention spin briefly,
/// then yield the processor. The standard `Mutex` on Linux hands a contended lock over through the
/// kernel, where the thread sanitizer cannot see the hand-over; this lock's hand-over is the atomic
/// operations themselves, so `--sanitize=thread` sees every ordering it establishes.
@usableFromInline
@frozen
package struct Lock: ~Copyable, Sendable {
    #if canImport(Darwin)
        @usableFromInline
        let mutex = Mutex<Void>(())
    #else
        @usableFromInline
        let isLocked = Atomic<Bool>(false)
    #endif

    @inlinable
    package init() {}

    /// Runs `body` with the lock held.
    @inlinable
    @discardableResult
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            return try mutex.withLock { _ in try body() }
        #else
            if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                lockContended()
            }
            defer { unlock() }
            return try body()
        #endif
    }

    #if !canImport(Darwin)
        /// Releases the lock.
        ///
        /// Out of line on purpose: inlined, the releasing store is not something the optimizer treats
        /// as a possible release of an object, so in optimized builds it may move the retain of a
        /// reference that `body` read and returned to after the store, where another thread may
        /// already have freed the object. A call it cannot see into keeps the retain inside the lock.
        @usableFromInline
        @inline(never)
        func unlock() {
            isLocked.store(false, ordering: .releasing)
        }
    #endif

    #if !canImport(Darwin)
        /// Waits for the lock: spins while the holder is likely still running, then yields.
        @usableFromInline
        func lockContended() {
            var attempts = 0
            while true {
                if !isLocked.load(ordering: .relaxed),
                    isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                {
                    return
                }
                attempts += 1
                if attempts > 100 { sched_yield() }
            }
        }
    #endif
}
