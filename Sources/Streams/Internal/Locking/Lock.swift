public import Synchronization

internal import CStreamsPlatform

/// The lock every stateful type in Streams and StreamsTesting uses.
///
/// The state it guards lives in the owner's stored properties, read and written only inside
/// ``withLock(_:)``. Owners never call a subscriber, a closure or a scheduler while holding it, so
/// critical sections are a few instructions long.
///
/// On Darwin it is a `Mutex` (an unfair lock). Elsewhere it is a lock of its own, two atomic words:
/// `word`, free (0) or held (1), and `sleepers`, the threads asleep on it.
/// - Acquiring is a compare-and-exchange of `word` from free to held; releasing is a plain store of
///   free, then a look at `sleepers`, and a wake-up only when somebody sleeps. So an uncontended
///   lock costs what a spin lock costs, one atomic read-modify-write, and a contended one never
///   makes a waiter burn the processor the holder needs.
/// - A waiter spins a little while the holder is likely still running, then counts itself in
///   `sleepers` and sleeps in the kernel on `word` (a futex) until a release wakes it; then it tries
///   again. Releases wake one sleeper at a time: while one woken thread is on its way, they wake
///   nobody more.
/// - The release reads `sleepers` without a fence, to keep its cost, so on rare occasions the
///   processor lets it read the count from before a waiter counted itself, while the waiter still
///   sees the lock held and sleeps. Then the next release wakes it; if none comes, its sleep ends
///   after ``LockWord/sleepLimitNanoseconds`` and it looks again. A wake-up can be late, never lost.
///
/// Every hand-over is an atomic operation on `word` (acquiring on the way in, releasing on the way
/// out); the kernel only puts threads to sleep and wakes them. So the thread sanitizer sees every
/// ordering the lock establishes, as it would not with the standard `Mutex` on Linux, whose
/// contended hand-over happens inside the kernel.
@usableFromInline
@frozen
package struct Lock: ~Copyable, Sendable {
    #if canImport(Darwin)
        @usableFromInline
        let mutex = Mutex<Void>(())
    #else
        /// Free or held (see ``LockWord``); the word sleepers sleep on.
        @usableFromInline
        let word = Atomic<UInt32>(LockWord.free)

        /// Twice the number of threads asleep on `word` (or about to be), plus one while a wake-up
        /// is on its way to one of them.
        @usableFromInline
        let sleepers = Atomic<UInt32>(0)
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
            if !word.compareExchange(expected: LockWord.free, desired: LockWord.held, ordering: .acquiring).exchanged {
                lockContended()
            }
            defer { unlock() }
            return try body()
        #endif
    }

    #if !canImport(Darwin)
        /// Releases the lock, and wakes a sleeper if there is one and no wake-up is on its way.
        ///
        /// Out of line on purpose: inlined, the releasing store is not something the optimizer treats
        /// as a possible release of an object, so in optimized builds it may move the retain of a
        /// reference that `body` read and returned to after the store, where another thread may
        /// already have freed the object. A call it cannot see into keeps the retain inside the lock.
        @usableFromInline
        @inline(never)
        func unlock() {
            word.store(LockWord.free, ordering: .releasing)
            // Keeps the compiler from reading `sleepers` before the store (no instruction on x86).
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            let waiting = sleepers.load(ordering: .relaxed)
            if waiting >= LockWord.oneSleeper, waiting & LockWord.wakeUpOnItsWay == 0 { wakeOne() }
        }

        /// Wakes one sleeper, unless another release has just claimed the wake-up.
        @inline(never)
        func wakeOne() {
            var current = sleepers.load(ordering: .relaxed)
            while current >= LockWord.oneSleeper, current & LockWord.wakeUpOnItsWay == 0 {
                let (exchanged, original) = sleepers.compareExchange(
                    expected: current, desired: current | LockWord.wakeUpOnItsWay, ordering: .relaxed)
                if exchanged {
                    // Nobody was asleep yet (a waiter counted itself but has not gone to sleep, and
                    // will find the lock free): the claim is given back.
                    if streams_futex_wake(wordAddress) == 0 {
                        sleepers.bitwiseAnd(~LockWord.wakeUpOnItsWay, ordering: .relaxed)
                    }
                    return
                }
                current = original
            }
        }

        /// Waits for the lock held by another thread: spins while the holder is likely still running,
        /// then sleeps until a release wakes it, as often as it finds the lock taken again.
        @usableFromInline
        @inline(never)
        func lockContended() {
            while true {
                for _ in 0..<LockWord.spins {
                    if word.load(ordering: .relaxed) == LockWord.free,
                        word.compareExchange(expected: LockWord.free, desired: LockWord.held, ordering: .acquiring)
                            .exchanged
                    {
                        return
                    }
                    streams_spin_hint()
                }
                sleepers.add(LockWord.oneSleeper, ordering: .sequentiallyConsistent)
                if word.compareExchange(expected: LockWord.free, desired: LockWord.held, ordering: .acquiring)
                    .exchanged
                {
                    sleepers.subtract(LockWord.oneSleeper, ordering: .relaxed)
                    return
                }
                streams_futex_wait(wordAddress, LockWord.held, LockWord.sleepLimitNanoseconds)
                // Awake: one sleeper fewer, and the wake-up on its way (if any) has arrived.
                var current = sleepers.load(ordering: .relaxed)
                while true {
                    let (exchanged, original) = sleepers.compareExchange(
                        expected: current, desired: (current - LockWord.oneSleeper) & ~LockWord.wakeUpOnItsWay,
                        ordering: .relaxed)
                    if exchanged { break }
                    current = original
                }
            }
        }

        /// The address of `word`, for the kernel. The lock is never copied (it is `~Copyable`) and
        /// its atomics are borrowed in place, so this is where the word lives for as long as the
        /// lock does.
        var wordAddress: UnsafeMutablePointer<UInt32> {
            withUnsafePointer(to: word) {
                UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self)
            }
        }
    #endif
}

#if !canImport(Darwin)
    /// The values and limits of a ``Lock``.
    @usableFromInline
    enum LockWord {
        /// Nobody holds the lock.
        @inlinable
        static var free: UInt32 { 0 }
        /// A thread holds the lock.
        @inlinable
        static var held: UInt32 { 1 }
        /// One sleeper in the lock's `sleepers` count.
        @inlinable
        static var oneSleeper: UInt32 { 2 }
        /// The bit of `sleepers` that says a wake-up is on its way.
        @inlinable
        static var wakeUpOnItsWay: UInt32 { 1 }
        /// How many times a waiter looks at a held word before it sleeps: about a microsecond, the
        /// length of a few critical sections.
        static var spins: Int { 100 }
        /// The longest a waiter sleeps before it looks at the word again, in case a wake-up came
        /// late (see ``Lock``): one millisecond.
        static var sleepLimitNanoseconds: Int64 { 1_000_000 }
    }
#endif
