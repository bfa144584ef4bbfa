import CAllocCounter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Measures the part of a run that is the operation under test: wall-clock time, and the heap
/// allocations and frees made meanwhile (when the harness has switched allocation counting on).
///
/// A scenario calls `start()` after its setup and `stop()` before its checks; it may measure several
/// stretches, which add up.
///
/// `@unchecked Sendable`: one task or thread uses it at a time. An async scenario receives it in the
/// task the harness starts for the run, and the harness reads it only after that task has signalled
/// that it is done.
public final class Probe: @unchecked Sendable {
    /// Wall-clock nanoseconds of the measured stretches, added up.
    public private(set) var elapsedNanoseconds: UInt64 = 0
    /// Heap allocations made during the measured stretches (0 unless allocation counting is on).
    public private(set) var allocations: UInt64 = 0
    /// Heap frees made during the measured stretches (0 unless allocation counting is on).
    public private(set) var frees: UInt64 = 0
    /// What a contention scenario (7) observed besides its time; nil for the other scenarios.
    public var contention: ContentionStats?

    private var startTime: UInt64 = 0
    private var startAllocations: UInt64 = 0
    private var startFrees: UInt64 = 0
    private var running = false

    /// A probe that has measured nothing yet.
    public init() {}

    /// Starts a measured stretch: notes the time and the allocation and free counts.
    public func start() {
        precondition(!running, "Probe.start() called twice without stop()")
        running = true
        startAllocations = bench_alloc_count()
        startFrees = bench_free_count()
        startTime = Probe.now()
    }

    /// Ends the current stretch now, adding its time, allocations and frees to the totals.
    public func stop() {
        stop(endedAt: Probe.now())
    }

    /// Stops a stretch that ended at `end` (a `Probe.now()` time taken earlier, perhaps on another
    /// thread); the allocations counted are those made until now.
    public func stop(endedAt end: UInt64) {
        precondition(running, "Probe.stop() called without start()")
        running = false
        elapsedNanoseconds += end - startTime
        allocations += bench_alloc_count() - startAllocations
        frees += bench_free_count() - startFrees
    }

    /// Monotonic time in nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Switches allocation counting (see CAllocCounter) on or off for the whole process.
public enum AllocationCounter {
    /// Whether this build counts allocations at all: on glibc, where the executable replaces malloc.
    public static var isSupported: Bool { bench_alloc_counting_supported() != 0 }

    /// Turns counting on or off for every thread.
    public static func setCounting(_ enabled: Bool) {
        bench_alloc_set_counting(enabled ? 1 : 0)
    }

    /// Counts the allocations of `objects` new class instances kept in a preallocated array: a
    /// working counter reports exactly `objects`.
    public static func selfCheck(objects: Int = 1_000) -> UInt64 {
        var kept: [CalibrationObject] = []
        kept.reserveCapacity(objects)
        setCounting(true)
        let before = bench_alloc_count()
        for index in 0..<objects { kept.append(CalibrationObject(index)) }
        let counted = bench_alloc_count() - before
        setCounting(false)
        withExtendedLifetime(kept) {}
        return counted
    }
}

/// An object for the allocation counter's self-check.
final class CalibrationObject {
    let value: Int

    init(_ value: Int) {
        self.value = opaque(value)
    }
}
