import BenchmarkCore
import Foundation

/// The soak run: every workload briefly to warm up, then each for its share of the time, with the
/// process's memory read before, during and after each one.
struct SoakRun {
    /// Every workload, in the order they run.
    static let allWorkloads: [any Workload] = [
        SubjectWorkload(kind: .passthrough),
        SubjectWorkload(kind: .currentValue),
        PublishedWorkload(),
        ObservationBridgeWorkload(),
        ShareWorkload(),
        FlatMapWorkload(),
    ]

    /// How long each workload runs before the baseline is read, so that what is created once (type
    /// metadata, the allocator's arenas, dispatch's threads) is there already.
    static let warmUpSeconds = 0.5

    /// The workloads to run.
    let workloads: [any Workload]
    /// What every workload shares.
    let settings: SoakSettings
    /// Total seconds of the measured run, shared equally by the workloads.
    let seconds: Double

    /// Runs everything and returns the report.
    func run() -> SoakReport {
        // Read before the memory at launch: the first use of the date formatter loads its data.
        let processors = ProcessInfo.processInfo.activeProcessorCount
        let loadAtStart = Self.loadAverage()
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let atLaunch = MemoryReading.afterTrimming()

        printError("warming up: each workload for \(Self.warmUpSeconds) s")
        let warmUpLedgers = workloads.map { workload in
            let ledger = WorkloadLedger("\(workload.name) warm-up")
            workload.run(for: .milliseconds(Int(Self.warmUpSeconds * 1000)), settings: settings, ledger: ledger)
            return ledger
        }
        let baseline = MemoryReading.afterTrimming()

        let share = seconds / Double(workloads.count)
        let sampler = MemorySampler()
        let results = workloads.map { measure($0, for: .milliseconds(Int(share * 1000)), sampler: sampler) }
        sampler.stop()
        let atEnd = MemoryReading.afterTrimming()

        let setup = """
            Streams soak run, \(startedAt): \(workloads.count) workloads × \(Formatting.decimal(share, places: 1)) s \
            (after a \(Self.warmUpSeconds) s warm-up of each), \(settings.senders) sender threads and \
            \(settings.churners) churn threads per workload, \(processors) processors, load average \
            \(loadAtStart ?? "?") at the start and \(Self.loadAverage() ?? "?") at the end, seed \(settings.seed). \
            Memory: RSS from /proc/self/statm, sampled every \(MemorySampler.intervalMilliseconds) ms; peak RSS \
            from VmHWM, reset for each workload; heap in use from glibc's mallinfo2; "before" and "after" are read \
            after malloc_trim returned the allocator's free memory.
            """
        return SoakReport(
            setup: setup, start: atLaunch, baseline: baseline, end: atEnd, results: results,
            warmUpLedgers: warmUpLedgers)
    }

    /// Runs one workload for `duration` and reads the memory around it.
    private func measure(_ workload: any Workload, for duration: Duration, sampler: MemorySampler) -> WorkloadResult {
        printError("\(workload.name): \(Formatting.decimal(duration.inSeconds, places: 1)) s")
        let ledger = WorkloadLedger(workload.name)
        let before = MemoryReading.afterTrimming()
        let highWaterMarkReset = ProcessMemory.resetHighWaterMark()
        sampler.begin(duration: duration, ledger: ledger)
        let start = ContinuousClock.now
        workload.run(for: duration, settings: settings, ledger: ledger)
        let elapsed = ContinuousClock.now - start
        let window = sampler.end()
        let sampledPeak = window.map { max($0.peakResident.firstHalf, $0.peakResident.secondHalf) }
        let highWaterMark = highWaterMarkReset ? ProcessMemory.highWaterMarkBytes() : nil
        let peak = [sampledPeak, highWaterMark].compactMap { $0 }.filter { $0 > 0 }.max()
        if ledger.violationCount > 0 { printError("  \(ledger.violationCount) checks failed") }
        return WorkloadResult(
            name: workload.name, seconds: elapsed.inSeconds, ledger: ledger, before: before, peakResident: peak,
            after: MemoryReading.afterTrimming(), window: window)
    }

    /// The 1-minute load average, from `/proc/loadavg`, or nil where there is none.
    private static func loadAverage() -> String? {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init)
    }
}

/// Writes a line to standard error: progress, and problems with the options.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
