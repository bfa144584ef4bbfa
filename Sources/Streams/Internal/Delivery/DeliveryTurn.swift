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
internal import CStreamsPlatform

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
// 5. A waiting thread spins a little, then parks. Giving the turn up wakes the thread that has
//    waited longest, which tries again; until it is back, a running thread may take the turn first
//    (so a turn passes between running threads without waiting for a sleeping one to wake). A
//    parked thread keeps its place at the head of the queue, and one that has waited longer than
//    ``DeliveryTurn/patience`` is handed the turn directly: none starves.
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

    /// Threads parked until the turn is free or handed to them, oldest first.
    @usableFromInline
    var firstWaiter: TurnWaiter?

    @usableFromInline
    var lastWaiter: TurnWaiter?

    /// Whether a parked thread was woken and has not tried again yet: releases wake nobody more
    /// meanwhile, so that a busy turn costs at most one wake-up at a time.
    @usableFromInline
    var wakeUpOnItsWay = false

    /// How long a parked thread lets running threads take the turn before it, at most, before a
    /// release hands the turn to it directly: 1 ms.
    @usableFromInline
    static let patience: UInt64 = 1_000_000

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

    /// Queues a thread that parks, behind the others.
    @inlinable
    mutating func enqueue(_ waiter: TurnWaiter) {
        if let lastWaiter {
            lastWaiter.next = waiter
        } else {
            firstWaiter = waiter
        }
        lastWaiter = waiter
    }

    /// Queues a thread that parks again after finding the turn taken, ahead of the others: it has
    /// waited longest.
    @inlinable
    mutating func requeueFirst(_ waiter: TurnWaiter) {
        waiter.next = firstWaiter
        firstWaiter = waiter
        if lastWaiter == nil { lastWaiter = waiter }
    }

    /// One attempt, for ``awaitTurn(lock:_:)``, to take the turn that another thread held: takes it
    /// if it is free (or was handed to a returning waiter); otherwise queues a waiter to park, as
    /// `request` says, or reports `.busy`.
    @inlinable
    mutating func attempt(by thread: ThreadIdentity, _ request: TurnRequest) -> TurnAttempt {
        if case .returning(let waiter) = request {
            if waiter.isHandedOver { return .taken }
            wakeUpOnItsWay = false
        }
        if !isHeld {
            take(by: thread)
            return .taken
        }
        switch request {
        case .once:
            return .busy
        case .park(let since):
            let waiter = TurnWaiter(thread: thread, since: since)
            enqueue(waiter)
            return .parked(waiter)
        case .returning(let waiter):
            requeueFirst(waiter)
            return .parked(waiter)
        }
    }

    /// Gives the turn up. If a thread is parked and none is already on its way back, returns the one
    /// that has waited longest, to be woken once the lock is released: it tries again, or, if it
    /// has waited longer than ``patience``, finds the turn handed to it.
    @inlinable
    mutating func release() -> TurnWaiter? {
        guard let waiter = firstWaiter, !wakeUpOnItsWay else {
            holder = .none
            return nil
        }
        firstWaiter = waiter.next
        if firstWaiter == nil { lastWaiter = nil }
        waiter.next = nil
        if waiter.hasWaitedTooLong {
            holder = waiter.thread
            waiter.isHandedOver = true
        } else {
            holder = .none
            wakeUpOnItsWay = true
        }
        return waiter
    }
}

/// A thread parked until a ``DeliveryTurn`` is free or handed to it.
@usableFromInline
final class TurnWaiter {
    @usableFromInline
    let thread: ThreadIdentity

    /// When the thread began to wait, in nanoseconds of the monotonic clock.
    @usableFromInline
    let since: UInt64

    /// The next waiter in the turn's queue; guarded by the turn owner's lock.
    @usableFromInline
    var next: TurnWaiter?

    /// Guarded by the turn owner's lock: the turn was handed to this thread while it slept.
    @usableFromInline
    var isHandedOver = false

    private let wakeUp = DispatchSemaphore(value: 0)

    @usableFromInline
    init(thread: ThreadIdentity, since: UInt64) {
        self.thread = thread
        self.since = since
    }

    /// Whether the thread has waited longer than ``DeliveryTurn/patience``.
    @usableFromInline
    var hasWaitedTooLong: Bool {
        Self.now() &- since > DeliveryTurn.patience
    }

    /// The monotonic clock, in nanoseconds.
    @usableFromInline
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Blocks until ``unpark()``. The caller then takes the owner's lock and tries again, with
    /// ``TurnRequest/returning(_:)``.
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

/// What a thread waiting for a busy turn asks of one attempt.
@usableFromInline
enum TurnRequest {
    /// Take the turn if it is free; otherwise report `.busy`.
    case once
    /// Take the turn if it is free; otherwise queue a waiter, waiting since this instant, and park.
    case park(since: UInt64)
    /// Back from parking: take the turn if it is free or was handed over; otherwise park again, at
    /// the head of the queue.
    case returning(TurnWaiter)
}

/// What one attempt to take a busy turn came to.
@usableFromInline
enum TurnAttempt {
    /// The turn was free, or handed over, and the caller holds it.
    case taken
    /// The caller queued this waiter and must park it, then try again.
    case parked(TurnWaiter)
    /// Still busy: try again.
    case busy
}

/// Waits until the calling thread holds a turn that another thread holds now.
///
/// `attempt` runs with `lock` held and does what the ``TurnRequest`` says. Attempts are spaced by
/// spinning for a few microseconds at most; then the caller parks, and tries again each time it is
/// woken, until it takes the turn or is handed it.
@inlinable
func awaitTurn(lock: borrowing Lock, _ attempt: (TurnRequest) -> TurnAttempt) {
    var backoff = TurnBackoff()
    var request = TurnRequest.once
    while true {
        switch lock.withLock({ attempt(request) }) {
        case .taken:
            return
        case .parked(let waiter):
            waiter.park()
            request = .returning(waiter)
        case .busy:
            backoff.pause()
            if backoff.isExhausted { request = .park(since: TurnWaiter.now()) }
        }
    }
}

/// The pauses between attempts to take a busy turn: spins that double in length, while the holder
/// is likely to finish soon; then the caller parks.
@usableFromInline
struct TurnBackoff {
    @usableFromInline
    var attempts = 0

    @inlinable
    init() {}

    /// Attempts spent spinning before the caller parks.
    @usableFromInline
    static let spinningAttempts = 7

    /// Whether the caller should park rather than spin again.
    @inlinable
    var isExhausted: Bool { attempts >= Self.spinningAttempts }

    /// Waits a little before the next attempt: 2, 4, … 128 spin-wait hints (a few microseconds in
    /// all), leaving the lock free for the holder meanwhile.
    @usableFromInline
    mutating func pause() {
        attempts += 1
        for _ in 0..<(1 << attempts) { streams_spin_hint() }
    }
}
