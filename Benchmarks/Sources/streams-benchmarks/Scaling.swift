import BenchmarkCore
import CAllocCounter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the scaling mode (`--threads LIST`) runs, and how.
struct ScalingOptions {
    /// The thread counts, ascending, each once.
    var threadCounts: [Int]
    /// The scenarios, in order (M1 to M4, filtered).
    var scenarios: [ScalingScenario]
    /// The implementations, in the order of the columns.
    var implementations: [Implementation]
    /// Rounds each cell's process runs.
    var rounds: Int
    /// Tiny sizes (`--quick`).
    var quick: Bool
    /// How long a cell's process may run before it is killed.
    var cellTimeoutSeconds: Double
    /// `--label`: the commit or anything else that says what was measured.
    var label: String?

    /// The sizes of every cell.
    var sizes: ScalingSizes { quick ? .quick : .full }

    /// "1,2,4,8,16" as thread counts: ascending, each once; nil unless every entry is a number from 1
    /// to the rig's maximum.
    static func threadCounts(_ text: String) -> [Int]? {
        let counts = text.split(separator: ",").map { Int($0.trimmingPrefix(" ")) }
        guard !counts.isEmpty,
            counts.allSatisfy({ count in count.map { $0 > 0 && $0 <= ContentionRig.maximumThreads } ?? false })
        else { return nil }
        return Set(counts.compactMap { $0 }).sorted()
    }
}

/// Runs every cell (scenario × thread count × implementation), each in a child process of its own,
/// and writes one Markdown table per scenario to standard output, cell by cell as the results come in
/// (flushed after each), with progress on standard error. Exits with status 1 if any cell's checks
/// failed, it crashed or it ran out of time; 0 otherwise.
func runScalingMode(_ options: ScalingOptions) -> Never {
    #if DEBUG
        let configuration = "debug (numbers are meaningless: use -c release)"
    #else
        let configuration = "release"
    #endif
    let available = bench_available_processors()
    let libc = bench_libc_version().map { String(cString: $0) } ?? "unknown"
    let sizes = options.sizes
    print("# Streams benchmarks: scaling with threads\(options.quick ? " (--quick: smoke-test sizes)" : "")")
    print("")
    print("- date: \(currentDate())")
    if let label = options.label { print("- label: \(label)") }
    print(
        "- machine: \(available > 0 ? String(available) : "?") processors available (nproc), "
            + "\(onlineProcessors()) online; CPU: \(cpuModel()); glibc \(libc)")
    print("- build: \(configuration); load average at start: \(loadAverage())")
    print(
        "- thread counts: \(options.threadCounts.map(String.init).joined(separator: ", ")); "
            + "rounds per cell: \(options.rounds) (the median is shown); each cell in a process of its own, "
            + "killed after \(fixed(options.cellTimeoutSeconds, 0)) s")
    print("- implementations: \(options.implementations.map(\.rawValue).joined(separator: ", "))")
    print("")
    fflush(nil)

    let started = Probe.now()
    let cellCount = options.scenarios.count * options.threadCounts.count * options.implementations.count
    var cellNumber = 0
    var failedCells: [String] = []
    for scenario in options.scenarios {
        print("## \(scenario.id): \(scenario.title(sizes))")
        print("")
        print(
            "\(scenario.rateName): \(scenario.units) per second, all threads together; speedup against the same "
                + "implementation at \(options.threadCounts[0]) thread\(options.threadCounts[0] == 1 ? "" : "s")"
                + (scenario == .subscribeChurn
                    ? "; sender: values the sending thread sent during the run (median) and its rate" : ""))
        print("")
        let table = ScalingTable(
            scenario: scenario, implementations: options.implementations, baseThreads: options.threadCounts[0])
        table.writeHeader()
        var baseRates: [Implementation: Double] = [:]
        var notes: [String] = []
        for threads in options.threadCounts {
            table.beginRow(threads: threads)
            for implementation in options.implementations {
                cellNumber += 1
                let cell = CellSpec(scenario: scenario, implementation: implementation, threads: threads)
                printError("[\(cell.name)] cell \(cellNumber) of \(cellCount)")
                let result = CellResult(
                    running: cell, rounds: options.rounds, quick: options.quick,
                    timeoutSeconds: options.cellTimeoutSeconds)
                if threads == options.threadCounts[0], let rate = result.medianRate {
                    baseRates[implementation] = rate
                }
                table.writeCell(result, baseRate: baseRates[implementation])
                var summary =
                    "[\(cell.name)] \(result.medianRate.map(formatRate) ?? "-") \(scenario.rateName), peak "
                    + "\(result.peakBytes.map(mebibytes) ?? "?") MiB, \(fixed(result.seconds, 1)) s: "
                if result.passed {
                    summary += "checks passed"
                } else {
                    summary += "FAILED: \(result.problems.joined(separator: "; "))"
                    failedCells.append(cell.name)
                    notes += result.problems.map { "- T=\(threads) \(implementation.rawValue): \($0)" }
                }
                printError(summary)
            }
            table.endRow()
        }
        print("")
        if !notes.isEmpty {
            print("Failed checks:")
            for note in notes { print(note) }
            print("")
        }
        fflush(nil)
    }
    let elapsed = Double(Probe.now() - started) / 1e9
    if failedCells.isEmpty {
        print(
            "Every check of every cell passed. Total time \(fixed(elapsed, 1)) s; load average at end: "
                + "\(loadAverage()).")
    } else {
        print(
            "CHECKS FAILED in \(failedCells.count) of \(cellCount) cells: \(failedCells.joined(separator: ", ")). "
                + "Total time \(fixed(elapsed, 1)) s; load average at end: \(loadAverage()).")
    }
    fflush(nil)
    exit(failedCells.isEmpty ? 0 : 1)
}

/// "12.3": bytes in MiB (2^20 bytes), one decimal below 100.
func mebibytes(_ bytes: Int) -> String {
    let value = Double(bytes) / 1_048_576
    return value < 100 ? fixed(value, 1) : grouped(Int(value.rounded()))
}

/// One scenario's Markdown table, written a cell at a time: a row per thread count, a group of
/// columns per implementation. The columns have fixed widths (set by their headers), so that the
/// table lines up in a terminal although no row is known before it is written.
final class ScalingTable {
    private let scenario: ScalingScenario
    private let implementations: [Implementation]
    private let baseThreads: Int
    private let threadsWidth = 5

    /// A table for `scenario` whose speedups are against `baseThreads`.
    init(scenario: ScalingScenario, implementations: [Implementation], baseThreads: Int) {
        self.scenario = scenario
        self.implementations = implementations
        self.baseThreads = baseThreads
    }

    /// The headers of one implementation's columns, and whether each is right-aligned.
    private func columns(_ implementation: Implementation) -> [(header: String, right: Bool)] {
        var columns = [
            (header: "\(implementation.rawValue) \(scenario.rateName)", right: true),
            (header: "speedup vs T=\(baseThreads)", right: true),
        ]
        if scenario == .subscribeChurn {
            columns.append((header: "sender values (values/s)".padding(toAtLeast: 20), right: true))
        }
        columns += [(header: "peak MiB", right: true), (header: "check".padding(toAtLeast: 9), right: false)]
        return columns
    }

    /// Writes the header and the separator line.
    func writeHeader() {
        let all = implementations.flatMap(columns)
        print("| " + "T".padding(toAtLeast: threadsWidth) + " | " + all.map(\.header).joined(separator: " | ") + " |")
        print(
            "|" + String(repeating: "-", count: threadsWidth + 1) + ":|"
                + all.map { column in
                    column.right
                        ? String(repeating: "-", count: column.header.count + 1) + ":"
                        : String(repeating: "-", count: column.header.count + 2)
                }.joined(separator: "|") + "|")
        fflush(nil)
    }

    /// Starts the row of `threads` threads.
    func beginRow(threads: Int) {
        let text = String(threads)
        print("| " + String(repeating: " ", count: max(0, threadsWidth - text.count)) + text + " |", terminator: "")
        fflush(nil)
    }

    /// Writes the next implementation's cells of the current row.
    func writeCell(_ result: CellResult, baseRate: Double?) {
        let implementation = implementations[cellsWritten % implementations.count]
        cellsWritten += 1
        let rate = result.medianRate
        var texts = [rate.map(formatRate) ?? "-"]
        if let rate, let baseRate, baseRate > 0 {
            texts.append(fixed(rate / baseRate, 2) + "×")
        } else {
            texts.append("-")
        }
        if scenario == .subscribeChurn {
            texts.append(
                result.medianSender.map { "\(formatRate($0.values)) (\(formatRate($0.rate))/s)" } ?? "-")
        }
        texts.append(result.peakBytes.map(mebibytes) ?? "-")
        texts.append(checkText(result))
        for (column, text) in zip(columns(implementation), texts) {
            let padding = String(repeating: " ", count: max(0, column.header.count - text.count))
            print(" " + (column.right ? padding + text : text + padding) + " |", terminator: "")
        }
        fflush(nil)
    }

    /// Ends the current row.
    func endRow() {
        print("")
        fflush(nil)
    }

    private var cellsWritten = 0

    /// "ok", "FAILED" (a check, or an exit status other than 0), "TIMED OUT" or "CRASHED" (ended by a
    /// signal); the details follow the table.
    private func checkText(_ result: CellResult) -> String {
        if result.passed { return "ok" }
        if let end = result.abnormalEnd {
            if end.hasPrefix("did not finish") { return "TIMED OUT" }
            if end.hasPrefix("ended by signal") { return "CRASHED" }
        }
        return "FAILED"
    }
}

extension String {
    /// The string with spaces added at the end up to `width` characters.
    fileprivate func padding(toAtLeast width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
