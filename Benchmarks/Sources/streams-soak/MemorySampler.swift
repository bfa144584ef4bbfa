import BenchmarkCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread that reads the process's memory every few milliseconds while a workload runs, and keeps
/// the peaks of the first and the second half of the workload apart, to tell memory that grows over
/// time from memory that grew once and stayed.
final class MemorySampler: Sendable {
    /// Milliseconds between two readings.
    static let intervalMilliseconds: UInt32 = 10

    /// What the sampler saw during one workload.
    struct Window {
        /// When the workload started.
        var start: ContinuousClock.Instant
        /// When its second half starts.
        var halfway: ContinuousClock.Instant
        /// The ledger whose live subscriber count is sampled.
        var ledger: WorkloadLedger
        /// The highest RSS read in each half.
        var peakResident = (firstHalf: 0, secondHalf: 0)
        /// The highest heap in use read in each half.
        var peakHeap = (firstHalf: 0, secondHalf: 0)
        /// Readings made.
        var samples = 0
        /// The most checked subscribers alive at once.
        var mostAlive = 0

        /// Takes a reading made at `time` into account.
        mutating func record(_ reading: MemoryReading, at time: ContinuousClock.Instant) {
            samples += 1
            let resident = reading.resident ?? 0
            let heap = reading.heapInUse ?? 0
            if time < halfway {
                peakResident.firstHalf = max(peakResident.firstHalf, resident)
                peakHeap.firstHalf = max(peakHeap.firstHalf, heap)
            } else {
                peakResident.secondHalf = max(peakResident.secondHalf, resident)
                peakHeap.secondHalf = max(peakHeap.secondHalf, heap)
            }
            mostAlive = max(mostAlive, ledger.alive.load(ordering: .relaxed))
        }
    }

    /// What the sampling thread and the workloads' thread share.
    private final class Shared: Sendable {
        let window = Mutex<Window?>(nil)
        let finished = Atomic<Bool>(false)
    }

    private let shared = Shared()
    private let threads: ThreadGroup

    /// Starts the sampling thread; it records nothing until a window begins.
    init() {
        let shared = shared
        threads = ThreadGroup(count: 1, name: "soak memory sampler") { _ in
            while !shared.finished.load(ordering: .acquiring) {
                let reading = MemoryReading.now()
                let time = ContinuousClock.now
                shared.window.withLock { $0?.record(reading, at: time) }
                usleep(Self.intervalMilliseconds * 1_000)
            }
        }
    }

    /// Starts recording a workload that runs for `duration` from now.
    func begin(duration: Duration, ledger: WorkloadLedger) {
        let start = ContinuousClock.now
        shared.window.withLock { $0 = Window(start: start, halfway: start + duration / 2, ledger: ledger) }
    }

    /// Stops recording and returns what was seen.
    func end() -> Window? {
        shared.window.withLock { $0.take() }
    }

    /// Stops the sampling thread.
    func stop() {
        shared.finished.store(true, ordering: .releasing)
        threads.join()
    }
}
