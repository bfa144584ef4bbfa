import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain threads, started together behind a gate and timed from the moment the gate opens until the
/// last of them has finished its timed work: the threads of the contention and scaling scenarios.
/// Plain pthreads rather than dispatch's pool, so that each one runs for the whole scenario whatever
/// the number of processors.
enum ThreadCrew {
    /// The crew's timing: when the gate opened, and when the last thread finished its timed work.
    struct Timing {
        /// `Probe.now()` when the gate opened.
        let start: UInt64
        /// The latest time a thread passed to ``StartingGate/finish(_:)``.
        let end: UInt64

        /// Nanoseconds from the gate's opening to the last thread's finish.
        var nanoseconds: UInt64 { end > start ? end - start : 0 }
    }

    /// Runs `body` on `count` new threads, each with its number (from 0) and the gate, and returns once
    /// every thread has returned from it. Each thread prepares what it needs, then calls
    /// ``StartingGate/arriveAndWait()``; once all have arrived the gate opens; each thread calls
    /// ``StartingGate/finish(_:)`` when its timed work is done, and may check its results after that,
    /// untimed. What each body returns (the problems it found, say) is returned in thread order.
    static func run<Result>(count: Int, _ body: @escaping (Int, StartingGate) -> Result) -> (Timing, [Result]) {
        let gate = StartingGate(count: count)
        let results = UnsafeMutablePointer<Result?>.allocate(capacity: count)
        results.initialize(repeating: nil, count: count)
        defer {
            results.deinitialize(count: count)
            results.deallocate()
        }
        let slots = ResultSlots(results)
        let threads = (0..<count).map { thread in
            startThread {
                // Each thread writes its own slot only; the slots are read after it has been joined.
                slots.pointer[thread] = body(thread, gate)
            }
        }
        let start = gate.openWhenAllArrived()
        for thread in threads { join(thread) }
        return (Timing(start: start, end: gate.lastFinish), (0..<count).map { results[$0]! })
    }

    /// The slots the threads write their results into.
    private struct ResultSlots<Result>: @unchecked Sendable {
        // @unchecked: thread `i` writes slot `i` only, before it ends; the crew reads them after joining.
        let pointer: UnsafeMutablePointer<Result?>

        init(_ pointer: UnsafeMutablePointer<Result?>) {
            self.pointer = pointer
        }
    }
}

/// The gate of a ``ThreadCrew``: the threads wait at it until every one of them is ready, then pass
/// together; each notes when it finished its timed work.
final class StartingGate: @unchecked Sendable {
    // @unchecked: `finishTimes` points to atomics; thread `i` writes the `i`-th only.

    /// The threads that must arrive before the gate opens.
    let count: Int
    private let ready = Atomic<Int>(0)
    private let isOpen = Atomic<Bool>(false)
    private let finishTimes: UnsafeMutablePointer<Atomic<UInt64>>

    /// A closed gate for `count` threads.
    init(count: Int) {
        self.count = count
        finishTimes = .allocate(capacity: count)
        for thread in 0..<count { (finishTimes + thread).initialize(to: Atomic(0)) }
    }

    deinit {
        finishTimes.deinitialize(count: count)
        finishTimes.deallocate()
    }

    /// Notes that the calling thread is ready and waits (yielding its processor) until the gate opens.
    func arriveAndWait() {
        ready.wrappingAdd(1, ordering: .releasing)
        while !isOpen.load(ordering: .acquiring) { sched_yield() }
    }

    /// Notes that thread `thread` has finished its timed work now, and returns the time.
    @discardableResult
    func finish(_ thread: Int) -> UInt64 {
        let now = Probe.now()
        finishTimes[thread].store(now, ordering: .releasing)
        return now
    }

    /// Waits until every thread has arrived, opens the gate and returns the time it opened.
    func openWhenAllArrived() -> UInt64 {
        while ready.load(ordering: .acquiring) < count { sched_yield() }
        let start = Probe.now()
        isOpen.store(true, ordering: .releasing)
        return start
    }

    /// The latest finish noted so far.
    var lastFinish: UInt64 {
        var latest: UInt64 = 0
        for thread in 0..<count { latest = max(latest, finishTimes[thread].load(ordering: .acquiring)) }
        return latest
    }
}

// MARK: - Threads

/// A thread's body, handed to `pthread_create` as its argument.
private final class ThreadBody {
    let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
    }
}

#if canImport(Darwin)
    /// A started thread, to join.
    typealias ThreadHandle = pthread_t?
#else
    /// A started thread, to join.
    typealias ThreadHandle = pthread_t
#endif

/// Starts a thread that runs `body`.
func startThread(_ body: @escaping () -> Void) -> ThreadHandle {
    let argument = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let result = pthread_create(
        &thread, nil,
        { argument in
            #if canImport(Darwin)
                let argument: UnsafeMutableRawPointer? = argument
            #endif
            Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, argument)
    precondition(result == 0, "pthread_create failed: \(result)")
    return thread
}

/// Waits until `thread` has returned from its body.
func join(_ thread: ThreadHandle) {
    #if canImport(Darwin)
        let result = pthread_join(thread!, nil)
    #else
        let result = pthread_join(thread, nil)
    #endif
    precondition(result == 0, "pthread_join failed: \(result)")
}
