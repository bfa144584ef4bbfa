#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Android)
    public import Android
#endif
import Dispatch
import Synchronization

// # How Streams serializes delivery across threads
//
// A `DeliveryTurn` is the right to call subscribers, held by one thread at a time and kept by its
// owner with the state its lock guards. The subjects (and through them `@Published`,
// `ObservableObjectPublisher` and `Store`) deliver under one, and so do the operators that can be
// called from several sources at once (merge, zip, combineLatest, flatMap, switchToLatest, buffer,
// the paced deliveries, the untilOutputFrom operators). In short:
//
// 1. The holder calls out with no lock held.
// 2. A call from another thread waits for the turn, then delivers its own work on its own thread
//    and returns: memory is bounded by the number of threads, never by the rate of sending.
// 3. A re-entrant call from the holder never waits. The subjects queue it for right after the
//    delivery in progress; each operator documents what it does instead.
// 4. Subscribing and cancelling never wait for the turn.
// 5. A waiting thread spins, then yields, then parks; parked threads are handed the turn in
//    arrival order, so none starves.
//
// The rules in full, with their reasons, are in the article "Writing a concurrent operator"
// (Docs/Streams.docc/WritingAConcurrentOperator.md).

/// The identity of a thread, for telling the thread that holds a ``DeliveryTurn`` from the others.
@usableFromInline
@frozen
struct ThreadIdentity: Equatable {
    @usableFromInline
    let rawValue: UInt

    @inlinable
    init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The calling thread.
    @inlinable
    static var current: ThreadIdentity {
        #if canImport(Darwin)
            ThreadIdentity(rawValue: UInt(bitPattern: pthread_self()))
        #else
            ThreadIdentity(rawValue: UInt(pthread_self()))
        #endif
    }

    /// No thread.
    @inlinable
    static var none: ThreadIdentity { ThreadIdentity(rawValue: 0) }
}

/// The right to deliver, held by one thread at a time: see the rules at the top of this file.
///
/// The owner keeps it among the state its lock guards and reads and changes it only with that lock
/// held. Waiting happens outside the lock, in ``awaitTurn(lock:_:)``.
@usableFromInline
struct DeliveryTurn {
    /// The thread holding the turn, or `.none`.
    @usableFromInline
    var holder = ThreadIdentity.none

    /// Threads parked until the turn is handed to them, oldest first; only while the turn is held.
    @usableFromInline
    var firstWaiter: TurnWaiter?

    @usableFromInline
    var lastWaiter: TurnWaiter?

    @inlinable
    init() {}

    /// Whether some thread holds the turn.
    @inlinable
    var isHeld: Bool { holder.rawValue != 0 }

    /// Whether threads are parked waiting for the turn.
    @inlinable
    var hasWaiters: Bool { firstWaiter != nil }

    /// Takes the turn, which nobody holds.
    @inlinable
    mutating func take(by thread: ThreadIdentity) {
        holder = thread
    }

    /// Takes the turn for `thread` if nobody holds it; returns whether it did.
    @inlinable
    mutating func takeIfFree(by thread: ThreadIdentity) -> Bool {
        guard !isHeld else { return false }
        holder = thread
        return true
    }

    /// Gives the turn up, with nobody waiting.
    @inlinable
    mutating func releaseUncontended() {
        holder = .none
    }

    /// Queues a thread that parks until the turn is handed to it.
    @inlinable
    mutating func enqueue(_ waiter: TurnWaiter) {
        if let lastWaiter {
            lastWaiter.next = waiter
        } else {
            firstWaiter = waiter
        }
        lastWaiter = waiter
    }

    /// One attempt, for ``awaitTurn(lock:_:)``, to take the turn that another thread held: takes it
    /// if it is free; otherwise, when `mayPark`, queues a waiter for `thread` to park.
    @inlinable
    mutating func attempt(by thread: ThreadIdentity, mayPark: Bool) -> TurnAttempt {
        if !isHeld {
            take(by: thread)
            return .taken
        }
        guard mayPark else { return .busy }
        let waiter = TurnWaiter(thread: thread)
        enqueue(waiter)
        return .parked(waiter)
    }

    /// Gives the turn up: hands it to the thread that has waited longest, if one is parked, and
    /// returns it to be woken once the lock is released.
    @inlinable
    mutating func release() -> TurnWaiter? {
        guard let waiter = firstWaiter else {
            holder = .none
            return nil
        }
        firstWaiter = waiter.next
        if firstWaiter == nil { lastWaiter = nil }
        waiter.next = nil
        holder = waiter.thread
        return waiter
    }
}

/// A thread parked until a ``DeliveryTurn`` is handed to it.
@usableFromInline
final class TurnWaiter {
    @usableFromInline
    let thread: ThreadIdentity

    /// The next waiter in the turn's queue; guarded by the turn owner's lock.
    @usableFromInline
    var next: TurnWaiter?

    private let wakeUp = DispatchSemaphore(value: 0)

    @usableFromInline
    init(thread: ThreadIdentity) {
        self.thread = thread
    }

    /// Blocks until ``unpark()``. The turn has been handed over by then; the caller takes the owner's
    /// lock before reading the state the turn protects.
    @usableFromInline
    func park() {
        wakeUp.wait()
    }

    /// Wakes the parked thread; call after releasing the owner's lock.
    @usableFromInline
    func unpark() {
        wakeUp.signal()
    }
}

/// What one attempt to take a busy turn came to.
@usableFromInline
enum TurnAttempt {
    /// The turn was free and the caller took it.
    case taken
    /// The caller queued this waiter and must park it; the turn is handed over when it wakes.
    case parked(TurnWaiter)
    /// Still busy: try again.
    case busy
}

/// Waits until the calling thread holds a turn that another thread holds now.
///
/// `attempt` runs with `lock` held. It takes the turn if it is free; otherwise, when `mayPark` is
/// true, it queues a ``TurnWaiter`` for the calling thread; otherwise it reports `.busy`. Attempts are
/// spaced by spinning, then by yielding the processor; after a bounded number the caller parks.
@inlinable
func awaitTurn(lock: borrowing Lock, _ attempt: (_ mayPark: Bool) -> TurnAttempt) {
    var backoff = TurnBackoff()
    while true {
        switch lock.withLock({ attempt(backoff.isExhausted) }) {
        case .taken:
            return
        case .parked(let waiter):
            waiter.park()
            return
        case .busy:
            backoff.pause()
        }
    }
}

/// The pauses between attempts to take a busy turn: short spins while the holder is likely to
/// finish soon, then yields, then nothing more (the caller parks).
@usableFromInline
struct TurnBackoff {
    @usableFromInline
    var attempts = 0

    @inlinable
    init() {}

    /// Attempts spent spinning, then yielding, before the caller parks.
    @usableFromInline
    static let spinningAttempts = 10

    @usableFromInline
    static let yieldingAttempts = 40

    /// Whether the caller should park rather than try again.
    @inlinable
    var isExhausted: Bool { attempts >= Self.spinningAttempts + Self.yieldingAttempts }

    /// Waits a little before the next attempt.
    @usableFromInline
    mutating func pause() {
        attempts += 1
        if attempts <= Self.spinningAttempts {
            // Up to ~1,000 iterations: long enough for a short delivery to end, too short to matter.
            let spins = 1 << attempts
            let counter = Atomic<Int>(0)
            for _ in 0..<spins { counter.add(1, ordering: .relaxed) }
        } else {
            sched_yield()
        }
    }
}
