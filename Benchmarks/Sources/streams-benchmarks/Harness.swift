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

    progress("warm-up")
    for implementation in implementations {
        try check(implementation, scenario.run[implementation]!(Probe()), phase: "warm-up")
    }
    for round in 0..<rounds {
        progress("round \(round + 1)/\(rounds)")
        for implementation in implementations {
            let probe = Probe()
            let checksum = scenario.run[implementation]!(probe)
            try check(implementation, checksum, phase: "round \(round + 1)")
            results[implementation, default: Measurement()].nanosecondsPerOperation.append(
                Double(probe.elapsedNanoseconds) / Double(scenario.operations))
        }
    }
    if AllocationCounter.isSupported {
        progress("counting allocations")
        for implementation in implementations {
            let probe = Probe()
            AllocationCounter.setCounting(true)
            let checksum = scenario.run[implementation]!(probe)
            AllocationCounter.setCounting(false)
            try check(implementation, checksum, phase: "allocation count")
            let operations = Double(scenario.operations)
            results[implementation, default: Measurement()].allocationsPerOperation =
                Double(probe.allocations) / operations
            results[implementation, default: Measurement()].retainedPerOperation =
                (Double(probe.allocations) - Double(probe.frees)) / operations
        }
    }
    return results
}
