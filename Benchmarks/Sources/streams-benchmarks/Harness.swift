import BenchmarkCore
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The implementations, in the order each round runs them.
enum Implementation: String, CaseIterable {
    case streams = "Streams"
    case openCombine = "OpenCombine"
    case asyncAlgorithms = "async-algorithms"
    case floor = "floor"

    /// The name `--impl` takes: the name in lower case, without hyphens.
    var option: String { rawValue.lowercased().filter { $0 != "-" } }

    /// The name in the ratio and allocation columns.
    var shortName: String {
        switch self {
        case .streams: "S"
        case .openCombine: "OC"
        case .asyncAlgorithms: "AA"
        case .floor: "floor"
        }
    }
}

/// One implementation's run of a scenario: it returns its checksum.
enum Runner {
    /// Runs on the calling thread.
    case sync((Probe) -> Int)
    /// Runs in a task of its own, while the calling thread waits for it (see `waitFor`).
    case async(@Sendable (Probe) async -> Int)

    func callAsFunction(_ probe: Probe) -> Int {
        switch self {
        case .sync(let body): body(probe)
        case .async(let body): waitFor(body, probe)
        }
    }
}

/// Runs `body` in a detached task, so on the concurrency runtime's own threads, and blocks the
/// calling thread (the main thread, which is none of them) until it has returned.
func waitFor(_ body: @escaping @Sendable (Probe) async -> Int, _ probe: Probe) -> Int {
    final class Outcome: @unchecked Sendable {
        // @unchecked: written by the task before it signals `done`, read after `wait()` returns.
        var checksum = 0
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    Task.detached {
        outcome.checksum = await body(probe)
        outcome.done.signal()
    }
    outcome.done.wait()
    return outcome.checksum
}

/// One scenario: the same work in each implementation, `operations` operations per run.
struct Scenario {
    let id: String
    let title: String
    /// What one operation is, for the table ("value", "update", ...).
    let unit: String
    let operations: Int
    let rounds: Int
    /// Runs one implementation once. An implementation missing here lacks the scenario (it has no
    /// such operator): it is skipped, and the report shows "—".
    let run: [Implementation: Runner]

    init(
        id: String, title: String, unit: String, operations: Int, rounds: Int,
        run: [Implementation: (Probe) -> Int],
        runAsync: [Implementation: @Sendable (Probe) async -> Int] = [:]
    ) {
        self.id = id
        self.title = title
        self.unit = unit
        self.operations = operations
        self.rounds = rounds
        self.run = run.mapValues(Runner.sync).merging(runAsync.mapValues(Runner.async)) { sync, _ in sync }
    }
}

/// What one implementation measured in one scenario.
struct Measurement {
    var nanosecondsPerOperation: [Double] = []
    var allocationsPerOperation: Double?
    var retainedPerOperation: Double?
    var checksum: Int?
    /// Contention scenarios: what each timed run observed besides its time.
    var contention: [ContentionStats] = []
    /// Contention scenarios: runs whose delivery contract was checked, warm-up and allocation count
    /// included.
    var checkedRuns = 0
    /// Contention scenarios: runs after which values whose `send` had returned had not all reached
    /// every subscriber.
    var violations: [(phase: String, stats: ContentionStats)] = []
    /// Contention scenarios: the run the memory guard stopped; the implementation ran no more.
    var unboundedBacklog: ContentionStats?

    var median: Double {
        let sorted = nanosecondsPerOperation.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { nanosecondsPerOperation.min() ?? 0 }
    var maximum: Double { nanosecondsPerOperation.max() ?? 0 }
}

struct ChecksumMismatch: Error, CustomStringConvertible {
    let scenario: String
    let checksums: [(Implementation, Int)]
    let phase: String

    var description: String {
        let listed = checksums.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: ", ")
        return "CHECKSUM MISMATCH in scenario \(scenario) (\(phase)): \(listed)"
    }
}

/// Runs a scenario: a warm-up run of each implementation, then `rounds` rounds that each run every
/// implementation once, interleaved (A B C D, A B C D, ...), then one more run of each with allocation
/// counting switched on. Every run's checksum must equal the first implementation's. Implementations
/// the scenario lacks are skipped and have no entry in the result.
///
/// A contention scenario's run may instead break the delivery contract (values whose `send` had
/// returned had not all been delivered, right after each sender's last `send` or once the senders
/// had been joined): that run's checksum is not compared, the run is recorded as a violation, and the
/// rounds go on. A run the memory guard stopped
/// is recorded as an unbounded backlog and its implementation runs no more in this scenario.
func measure(_ scenario: Scenario, implementations: [Implementation], rounds: Int, progress: (String) -> Void)
    throws -> [Implementation: Measurement]
{
    let implementations = implementations.filter { scenario.run[$0] != nil }
    var results: [Implementation: Measurement] = [:]
    var reference: (Implementation, Int)?

    func check(_ implementation: Implementation, _ checksum: Int, phase: String) throws {
        if results[implementation, default: Measurement()].checksum == nil {
            results[implementation, default: Measurement()].checksum = checksum
        }
        guard let (first, expected) = reference else {
            reference = (implementation, checksum)
            return
        }
        if checksum != expected {
            throw ChecksumMismatch(
                scenario: "\(scenario.id) \(scenario.title)",
                checksums: [(first, expected), (implementation, checksum)], phase: phase)
        }
    }

    /// Runs an implementation once; false if the run does not count (its backlog grew without bound).
    func run(_ implementation: Implementation, _ probe: Probe, phase: String) throws -> Bool {
        let checksum = scenario.run[implementation]!(probe)
        if let stats = probe.contention {
            if stats.unboundedBacklog {
                results[implementation, default: Measurement()].unboundedBacklog = stats
                return false
            }
            results[implementation, default: Measurement()].checkedRuns += 1
            if !stats.deliveredBeforeSendReturned {
                results[implementation, default: Measurement()].violations.append((phase, stats))
                return true
            }
        }
        try check(implementation, checksum, phase: phase)
        return true
    }

    func isRunning(_ implementation: Implementation) -> Bool {
        results[implementation]?.unboundedBacklog == nil
    }

    progress("warm-up")
    for implementation in implementations {
        _ = try run(implementation, Probe(), phase: "warm-up")
    }
    for round in 0..<rounds {
        progress("round \(round + 1)/\(rounds)")
        for implementation in implementations where isRunning(implementation) {
            let probe = Probe()
            guard try run(implementation, probe, phase: "round \(round + 1)") else { continue }
            results[implementation, default: Measurement()].nanosecondsPerOperation.append(
                Double(probe.elapsedNanoseconds) / Double(scenario.operations))
            if let stats = probe.contention { results[implementation, default: Measurement()].contention.append(stats) }
        }
    }
    if AllocationCounter.isSupported {
        progress("counting allocations")
        for implementation in implementations where isRunning(implementation) {
            let probe = Probe()
            AllocationCounter.setCounting(true)
            defer { AllocationCounter.setCounting(false) }
            guard try run(implementation, probe, phase: "allocation count") else { continue }
            let operations = Double(scenario.operations)
            results[implementation, default: Measurement()].allocationsPerOperation =
                Double(probe.allocations) / operations
            results[implementation, default: Measurement()].retainedPerOperation =
                (Double(probe.allocations) - Double(probe.frees)) / operations
        }
    }
    return results
}

/// "values delivered after send returned: got X, expected Y ...": what a contention run that broke
/// the delivery contract saw right after each sender's last `send` returned and once the senders had
/// been joined, and what became of the values missing then.
func describeViolation(_ stats: ContentionStats) -> String {
    let subscribers = "\(stats.subscribers) subscriber\(stats.subscribers == 1 ? "" : "s")"
    var text =
        "values delivered after send returned: got \(grouped(stats.deliveredWhenSendsReturned)), "
        + "expected \(grouped(stats.expected)) (\(grouped(stats.sent)) values sent × \(subscribers); "
        + "each sender thread counted its own values right after its last send returned); "
        + "once all senders had been joined: \(grouped(stats.deliveredAtJoin))"
    let missing = stats.expected - stats.deliveredAtJoin
    if let late = stats.lateByNanoseconds {
        let milliseconds = fixed(Double(late) / 1e6, 1)
        text += ", and the \(grouped(missing)) missing arrived by \(milliseconds) ms after the last send returned"
    } else if stats.missingAfterWait > 0 {
        text += ", and \(grouped(stats.missingAfterWait)) had still not arrived 10 s later"
    } else if missing < 0 {
        text += ", \(grouped(-missing)) deliveries too many"
    }
    return text
}
