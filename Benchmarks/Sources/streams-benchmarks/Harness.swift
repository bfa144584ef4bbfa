import BenchmarkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The implementations every scenario runs, in the order each round runs them.
enum Implementation: String, CaseIterable {
    case streams = "Streams"
    case openCombine = "OpenCombine"
    case floor = "floor"
}

/// One scenario: the same work in each implementation, `operations` operations per run.
struct Scenario {
    let id: String
    let title: String
    /// What one operation is, for the table ("value", "update", ...).
    let unit: String
    let operations: Int
    let rounds: Int
    /// Runs one implementation once; returns its checksum.
    let run: [Implementation: (Probe) -> Int]
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
/// implementation once, interleaved (A B C, A B C, ...), then one more run of each with allocation
/// counting switched on. Every run's checksum must equal the first implementation's.
///
/// A contention scenario's run may instead break the delivery contract (values whose `send` had
/// returned had not all been delivered, right after each sender's last `send` or once the senders
/// had been joined): that run's checksum is not compared, the run is recorded as a violation, and the
/// rounds go on. A run the memory guard stopped
/// is recorded as an unbounded backlog and its implementation runs no more in this scenario.
func measure(_ scenario: Scenario, implementations: [Implementation], rounds: Int, progress: (String) -> Void)
    throws -> [Implementation: Measurement]
{
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
