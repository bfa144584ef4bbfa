import Synchronization

/// The soak run's report: a Markdown table with a row per workload, then the process's memory, the
/// checks and the result.
struct SoakReport {
    /// The table's columns.
    static let columns = [
        "workload", "seconds", "values delivered", "subscribers created", "cancelled", "completed",
        "most alive at once", "slowest attach", "RSS before", "peak RSS", "RSS after",
        "heap in use, peak of 1st → 2nd half", "failed checks", "verdict",
    ]

    /// How the run was set up, in a paragraph.
    let setup: String
    /// The process's memory at launch.
    let start: MemoryReading
    /// The process's memory after the warm-up: the baseline.
    let baseline: MemoryReading
    /// The process's memory at the end, after every workload released everything.
    let end: MemoryReading
    /// One per workload, in the order they ran.
    let results: [WorkloadResult]
    /// Checks that failed during the warm-up (which runs every workload briefly first).
    let warmUpLedgers: [WorkloadLedger]

    /// Whether every check passed, in the warm-up too, and no workload's memory kept growing.
    var passed: Bool {
        results.allSatisfy(\.passed) && warmUpLedgers.allSatisfy { $0.violationCount == 0 }
    }

    /// The report, as text.
    func render() -> String {
        var lines = [setup, ""]
        lines.append("| " + Self.columns.joined(separator: " | ") + " |")
        lines.append("|---|" + String(repeating: "--:|", count: Self.columns.count - 2) + "---|")
        for result in results { lines.append(row(result)) }
        lines.append("")
        lines.append(contentsOf: memorySummary())
        lines.append(contentsOf: checksSummary())
        lines.append("")
        lines.append(passed ? "Result: PASS" : "Result: FAIL")
        return lines.joined(separator: "\n")
    }

    private func row(_ result: WorkloadResult) -> String {
        let ledger = result.ledger
        let heap = result.window.map {
            "\(Formatting.mebibytes($0.peakHeap.firstHalf)) → \(Formatting.mebibytes($0.peakHeap.secondHalf))"
        }
        let cells = [
            result.name,
            Formatting.decimal(result.seconds, places: 1),
            Formatting.count(ledger.delivered.load(ordering: .acquiring)),
            Formatting.count(ledger.created.load(ordering: .acquiring)),
            Formatting.count(ledger.cancelled.load(ordering: .acquiring)),
            Formatting.count(ledger.completed.load(ordering: .acquiring)),
            Formatting.count(result.window?.mostAlive ?? 0),
            Formatting.milliseconds(nanoseconds: ledger.slowestAttachNanoseconds.load(ordering: .acquiring)),
            Formatting.mebibytes(result.before.resident),
            Formatting.mebibytes(result.peakResident),
            Formatting.mebibytes(result.after.resident),
            heap ?? "—",
            Formatting.count(ledger.violationCount),
            verdict(result),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    private func verdict(_ result: WorkloadResult) -> String {
        var problems: [String] = []
        if result.ledger.violationCount > 0 { problems.append("checks failed") }
        if let growth = result.growth, growth.kept { problems.append("\(growth.measure) kept growing") }
        if problems.isEmpty {
            return result.returned == false ? "ok (RSS stayed above its baseline)" : "ok"
        }
        return "FAILED: " + problems.joined(separator: ", ")
    }

    private func memorySummary() -> [String] {
        var lines: [String] = []
        let peak = results.compactMap(\.peakResident).max()
        if let launch = start.resident, let baseline = baseline.resident, let end = end.resident {
            let back = MemoryPolicy.returned(from: baseline, to: end)
            let slack =
                "\(Formatting.mebibytes(MemoryPolicy.returnedSlackBytes)) or "
                + "\(Int(MemoryPolicy.returnedSlackFraction * 100)) %"
            lines.append(
                "Process RSS: \(Formatting.mebibytes(launch)) at launch, \(Formatting.mebibytes(baseline)) after the "
                    + "warm-up (the baseline), \(Formatting.mebibytes(peak)) at the peak, "
                    + "\(Formatting.mebibytes(end)) at the end (\(Formatting.signedMebibytes(end - baseline)): "
                    + "\(back ? "back to" : "NOT back to") the baseline, within \(slack)).")
        } else {
            lines.append("Process RSS: not available on this system.")
        }
        if let baseline = baseline.heapInUse, let end = end.heapInUse {
            lines.append(
                "Heap in use: \(Formatting.mebibytes(baseline)) after the warm-up, \(Formatting.mebibytes(end)) at "
                    + "the end (\(Formatting.signedMebibytes(end - baseline))).")
        }
        let grew = results.filter { $0.growth?.kept == true }.map(\.name)
        if let measure = results.compactMap(\.growth).first?.measure {
            let slackBytes =
                measure == "RSS" ? MemoryPolicy.residentGrowthSlackBytes : MemoryPolicy.heapGrowthSlackBytes
            lines.append(
                grew.isEmpty
                    ? "Memory over time: in no workload did the peak of \(measure) in the second half exceed the "
                        + "first half's by more than \(Formatting.mebibytes(slackBytes)) or "
                        + "\(Int(MemoryPolicy.growthSlackFraction * 100)) %."
                    : "Memory over time: \(measure) kept growing in \(grew.joined(separator: ", ")).")
        }
        return lines
    }

    private func checksSummary() -> [String] {
        let ledgers = warmUpLedgers + results.map(\.ledger)
        let failed = ledgers.reduce(0) { $0 + $1.violationCount }
        let late = results.reduce(0) { $0 + $1.ledger.lateAfterCancel.load(ordering: .acquiring) }
        var lines = [
            "Checks: \(Formatting.count(failed)) failed. Each subscriber checked each sender's order (no value "
                + "missing while it had demand), its demand, one event at a time, nothing after its completion and "
                + "at most one value (one already being handed over) after cancel() returned; residents checked "
                + "exact counts; everything released was freed.",
            "Values that arrived after cancel() had returned, each the one already being handed over: "
                + "\(Formatting.count(late)).",
        ]
        for ledger in ledgers where ledger.violationCount > 0 {
            lines.append(contentsOf: ledger.violationMessages.map { "  - [\(ledger.name)] \($0)" })
            if ledger.violationCount > ledger.violationMessages.count {
                lines.append("  - … and \(ledger.violationCount - ledger.violationMessages.count) more")
            }
        }
        return lines
    }
}
