import BenchmarkCore
import FloorScenarios
import OpenCombineScenarios
import StreamsScenarios

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One cell of the scaling mode: a scenario, an implementation and a thread count. The parent
/// process runs each cell in a child process of its own (`--cell M2:streams:16`), which runs its
/// rounds and writes what they measured to its standard output, one line each (see ``CellProtocol``).
struct CellSpec: Equatable {
    let scenario: ScalingScenario
    let implementation: Implementation
    let threads: Int

    /// "M2:streams:16", as `--cell` takes it.
    var argument: String { "\(scenario.id):\(implementation.option):\(threads)" }

    /// "M2 Streams T=16", for progress lines and notes.
    var name: String { "\(scenario.id) \(implementation.rawValue) T=\(threads)" }

    /// The cell `--cell` names, or nil if `text` names none.
    init?(_ text: String) {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 3,
            let scenario = ScalingScenario.allCases.first(where: { $0.id.lowercased() == parts[0].lowercased() }),
            let implementation = Implementation.allCases.first(where: { $0.option == parts[1].lowercased() }),
            let threads = Int(parts[2]), threads > 0, threads <= ContentionRig.maximumThreads
        else { return nil }
        self.init(scenario: scenario, implementation: implementation, threads: threads)
    }

    /// A cell.
    init(scenario: ScalingScenario, implementation: Implementation, threads: Int) {
        self.scenario = scenario
        self.implementation = implementation
        self.threads = threads
    }

    /// Whether the implementation has the scenario (async-algorithms has none of them).
    static func isAvailable(_ implementation: Implementation) -> Bool {
        implementation != .asyncAlgorithms
    }

    /// Runs the cell once in this process; nil if the implementation lacks the scenario.
    func runOnce(sizes: ScalingSizes) -> ScalingOutcome? {
        let values = scenario.operationsPerThread(sizes)
        let threads = threads
        switch (scenario, implementation) {
        case (_, .asyncAlgorithms):
            return nil
        case (.independentPipelines, .streams):
            return StreamsScenarios.independentPipelines(threads: threads, valuesPerThread: values)
        case (.independentPipelines, .openCombine):
            return OpenCombineScenarios.independentPipelines(threads: threads, valuesPerThread: values)
        case (.independentPipelines, .floor):
            return FloorScenarios.independentPipelines(threads: threads, valuesPerThread: values)
        case (.sharedSubject, .streams):
            return StreamsScenarios.sharedSubject(threads: threads, valuesPerThread: values)
        case (.sharedSubject, .openCombine):
            return OpenCombineScenarios.sharedSubject(threads: threads, valuesPerThread: values)
        case (.sharedSubject, .floor):
            return FloorScenarios.sharedSubject(threads: threads, valuesPerThread: values)
        case (.subscribeChurn, .streams):
            return StreamsScenarios.subscribeChurn(threads: threads, pairsPerThread: values)
        case (.subscribeChurn, .openCombine):
            return OpenCombineScenarios.subscribeChurn(threads: threads, pairsPerThread: values)
        case (.subscribeChurn, .floor):
            return FloorScenarios.subscribeChurn(threads: threads, pairsPerThread: values)
        case (.independentPublished, .streams):
            return StreamsScenarios.independentPublished(
                threads: threads, writesPerThread: values, sinks: sizes.publishedSinks)
        case (.independentPublished, .openCombine):
            return OpenCombineScenarios.independentPublished(
                threads: threads, writesPerThread: values, sinks: sizes.publishedSinks)
        case (.independentPublished, .floor):
            return FloorScenarios.independentPublished(
                threads: threads, writesPerThread: values, sinks: sizes.publishedSinks)
        }
    }
}

/// The lines a cell's process writes to its standard output, and reading them back:
///
///     round 1 nanoseconds=812345678 operations=4000000
///     round 2 nanoseconds=... operations=... sender-values=... sender-nanoseconds=...   (M3)
///     problem 2 <what a check found, one line>
///     peak-bytes=23456768
///
/// Each line is flushed as it is written, so that the parent has every finished round even if it has
/// to kill the process later.
enum CellProtocol {
    /// At most this many problem lines per round; the rest are counted in one more line.
    static let problemsPerRound = 8

    /// The lines for one round's outcome.
    static func lines(round: Int, _ outcome: ScalingOutcome) -> [String] {
        var line = "round \(round) nanoseconds=\(outcome.nanoseconds) operations=\(outcome.operations)"
        if let values = outcome.senderValues, let nanoseconds = outcome.senderNanoseconds {
            line += " sender-values=\(values) sender-nanoseconds=\(nanoseconds)"
        }
        var lines = [line]
        for problem in outcome.problems.prefix(problemsPerRound) {
            lines.append("problem \(round) \(problem.filter { $0 != "\n" })")
        }
        if outcome.problems.count > problemsPerRound {
            lines.append("problem \(round) ... and \(outcome.problems.count - problemsPerRound) more like these")
        }
        return lines
    }

    /// The last line: the process's peak resident set size.
    static func peakLine() -> String {
        "peak-bytes=\(ProcessMemory.highWaterMarkBytes() ?? -1)"
    }

    /// What the lines say: the rounds' outcomes (with the problems of each), and the peak.
    static func parse(_ lines: [String]) -> (rounds: [ScalingOutcome], peakBytes: Int?) {
        var rounds: [ScalingOutcome] = []
        var peak: Int?
        for line in lines {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            if words.first == "round" {
                var fields: [String: UInt64] = [:]
                for word in line.split(separator: " ").dropFirst(2) {
                    let pair = word.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, let number = UInt64(pair[1]) { fields[String(pair[0])] = number }
                }
                guard let nanoseconds = fields["nanoseconds"], let operations = fields["operations"] else { continue }
                rounds.append(
                    ScalingOutcome(
                        nanoseconds: nanoseconds, operations: Int(operations), problems: [],
                        senderValues: fields["sender-values"].map(Int.init),
                        senderNanoseconds: fields["sender-nanoseconds"]))
            } else if words.first == "problem", words.count == 3, !rounds.isEmpty {
                rounds[rounds.count - 1].problems.append(words[2])
            } else if line.hasPrefix("peak-bytes="), let bytes = Int(line.dropFirst("peak-bytes=".count)), bytes > 0 {
                peak = bytes
            }
        }
        return (rounds, peak)
    }
}

/// The child's side (`--cell`): runs the cell's rounds in this process, writes each round's outcome
/// as it comes (``CellProtocol``) and a progress line to standard error, then the peak, and exits (0,
/// whatever the checks found: the parent judges).
func runCell(_ cell: CellSpec, sizes: ScalingSizes, rounds: Int) -> Never {
    func emit(_ line: String) {
        print(line)
        fflush(nil)
    }
    for round in 1...rounds {
        guard let outcome = cell.runOnce(sizes: sizes) else {
            printError("\(cell.implementation.rawValue) has no scaling scenario \(cell.scenario.id)")
            exit(2)
        }
        for line in CellProtocol.lines(round: round, outcome) { emit(line) }
        var progress =
            "  [\(cell.name)] round \(round)/\(rounds): \(formatRate(outcome.operationsPerSecond)) "
            + "\(cell.scenario.rateName) in \(fixed(Double(outcome.nanoseconds) / 1e9, 2)) s"
        if let values = outcome.senderValues {
            progress += ", sender \(grouped(values)) values"
        }
        progress += outcome.problems.isEmpty ? ", checks passed" : ", CHECK FAILED: \(outcome.problems[0])"
        printError(progress)
    }
    emit(CellProtocol.peakLine())
    exit(0)
}

/// What the parent learned from one cell's process.
struct CellResult {
    /// The rounds the process finished (all of them, unless it was killed or crashed).
    var rounds: [ScalingOutcome]
    /// The process's peak resident set size: what it reported (`VmHWM`), else what the kernel said
    /// when it was reaped (`ru_maxrss`).
    var peakBytes: Int?
    /// How the process ended, if not as it should (`nil`: it exited normally, with every round done).
    var abnormalEnd: String?
    /// Seconds the process ran.
    var seconds: Double

    /// Runs `cell` in a child process with the given arguments and time limit.
    init(running cell: CellSpec, rounds expectedRounds: Int, quick: Bool, timeoutSeconds: Double) {
        var arguments = ["--cell", cell.argument, "--rounds", String(expectedRounds)]
        if quick { arguments.append("--quick") }
        let child = ChildRun.run(arguments: arguments, timeoutSeconds: timeoutSeconds)
        let parsed = CellProtocol.parse(child.lines)
        rounds = parsed.rounds
        peakBytes = parsed.peakBytes ?? child.maximumResidentBytes
        seconds = child.seconds
        let done = "\(rounds.count) of \(expectedRounds) rounds done"
        switch child.ending {
        case .timedOut:
            abnormalEnd = "did not finish within \(fixed(timeoutSeconds, 0)) s and was killed (\(done))"
        case .signalled(let signal):
            abnormalEnd = "ended by signal \(signal) after \(fixed(child.seconds, 1)) s (\(done))"
        case .exited(let status) where status != 0:
            abnormalEnd = "exited with status \(status) after \(fixed(child.seconds, 1)) s (\(done))"
        case .exited:
            abnormalEnd = rounds.count == expectedRounds ? nil : "ended with \(done)"
        }
    }

    /// Whether the cell ran to the end and every check of every round passed.
    var passed: Bool { abnormalEnd == nil && problems.isEmpty }

    /// Every problem: the abnormal end first, then each round's.
    var problems: [String] {
        (abnormalEnd.map { [$0] } ?? [])
            + rounds.enumerated().flatMap { index, round in round.problems.map { "round \(index + 1): \($0)" } }
    }

    /// The median of the finished rounds' operations per second.
    var medianRate: Double? { median(rounds.map(\.operationsPerSecond)) }

    /// M3: the median of the sender's values per second, and the median count of values it sent.
    var medianSender: (values: Double, rate: Double)? {
        let sent = rounds.compactMap { $0.senderValues.map(Double.init) }
        let rates = rounds.compactMap { round -> Double? in
            guard let values = round.senderValues, let nanoseconds = round.senderNanoseconds, nanoseconds > 0 else {
                return nil
            }
            return Double(values) * 1e9 / Double(nanoseconds)
        }
        guard let values = median(sent), let rate = median(rates) else { return nil }
        return (values, rate)
    }

    private func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// "823 k", "1.23 M", "12.3 M", "1.23 G": three significant digits and a decimal prefix; "0" for
/// nothing, "-" for no number.
func formatRate(_ value: Double) -> String {
    guard value.isFinite, value >= 0 else { return "-" }
    guard value > 0 else { return "0" }
    // A value that rounds up to the next prefix (999.7 k) takes that prefix (1.00 M).
    let prefixes: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1, "")]
    let (scale, prefix) = prefixes.first { value >= $0.0 * 0.9995 } ?? (1, "")
    let scaled = value / scale
    let digits = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2
    return fixed(scaled, digits) + (prefix.isEmpty ? "" : " " + prefix)
}
