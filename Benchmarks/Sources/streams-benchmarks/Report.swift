import BenchmarkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
    }
    return text
}

/// A time unit chosen for a magnitude in nanoseconds.
struct TimeUnit {
    let name: String
    let nanoseconds: Double

    static func fitting(_ nanoseconds: Double) -> TimeUnit {
        if nanoseconds < 1_000 { return TimeUnit(name: "ns", nanoseconds: 1) }
        if nanoseconds < 1_000_000 { return TimeUnit(name: "µs", nanoseconds: 1_000) }
        return TimeUnit(name: "ms", nanoseconds: 1_000_000)
    }

    func format(_ nanoseconds: Double) -> String {
        let value = nanoseconds / self.nanoseconds
        return fixed(value, value < 10 ? 2 : value < 100 ? 1 : 0)
    }
}

/// The cell of an implementation that lacks the scenario.
let notAvailable = "—"

/// "12.3 ns (11.9–13.0)": the median in a fitting unit, then the range in the same unit.
func formatTimes(_ measurement: Measurement?) -> String {
    guard let measurement else { return notAvailable }
    guard !measurement.nanosecondsPerOperation.isEmpty else { return "-" }
    let unit = TimeUnit.fitting(measurement.median)
    return "\(unit.format(measurement.median)) \(unit.name) "
        + "(\(unit.format(measurement.minimum))–\(unit.format(measurement.maximum)))"
}

/// The times, or a note that the memory guard stopped the implementation's backlog.
func formatTimesOrBacklog(_ measurement: Measurement?) -> String {
    if let measurement, measurement.nanosecondsPerOperation.isEmpty, measurement.unboundedBacklog != nil {
        return "unbounded backlog"
    }
    return formatTimes(measurement)
}

/// A contention row's peak resident and heap growth, backlog, and whether values were delivered before
/// their send returned.
func formatContention(_ measurement: Measurement) -> [String] {
    func medianAndMaximum(_ values: [Int], _ format: (Int) -> String) -> String {
        guard !values.isEmpty else { return "-" }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return "\(format(median)) (\(format(sorted[sorted.count - 1])))"
    }
    func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return fixed(value, value < 10 ? 1 : 0) + " MiB"
    }
    let runs = measurement.contention
    func memoryColumn(_ bytes: (ContentionStats) -> Int?) -> String {
        let values = runs.compactMap(bytes)
        return values.count < runs.count ? "-" : medianAndMaximum(values, megabytes)
    }
    var memory = memoryColumn(\.peakResidentGrowthBytes)
    var heap = memoryColumn(\.peakHeapGrowthBytes)
    var backlog = medianAndMaximum(runs.map(\.maximumBacklog), grouped)
    var delivered: String
    if let stopped = measurement.unboundedBacklog {
        memory = "> \(megabytes(stopped.peakResidentGrowthBytes ?? ContentionRig.residentLimitBytes))"
        heap = stopped.peakHeapGrowthBytes.map { "≥ \(megabytes($0))" } ?? "-"
        backlog = "≥ \(grouped(stopped.maximumBacklog))"
        let after = stopped.stoppedAfterNanoseconds.map { " in \(fixed(Double($0) / 1e9, 1)) s" } ?? ""
        delivered =
            "unbounded backlog: memory grew past \(megabytes(ContentionRig.residentLimitBytes))\(after); "
            + "stopped after \(grouped(stopped.sent)) sends"
    } else if runs.isEmpty {
        delivered = "-"
    } else {
        let short = runs.filter { !$0.deliveredBeforeSendReturned }
        if short.isEmpty {
            delivered = "all, in every run"
        } else {
            let worst = short.min { $0.deliveredWhenSendsReturned < $1.deliveredWhenSendsReturned }!
            let atJoin = short.allSatisfy { $0.deliveredAtJoin == $0.expected } ? "all" : "not all"
            delivered =
                "NOT ALL in \(short.count) of \(runs.count) runs (worst \(grouped(worst.deliveredWhenSendsReturned)) "
                + "of \(grouped(worst.expected))); at the join: \(atJoin)"
        }
    }
    return [memory, heap, backlog, delivered]
}

func formatRatio(_ numerator: Measurement?, _ denominator: Measurement?) -> String {
    guard let numerator, let denominator else { return notAvailable }
    guard !numerator.nanosecondsPerOperation.isEmpty,
        !denominator.nanosecondsPerOperation.isEmpty, denominator.median > 0
    else { return "-" }
    let ratio = numerator.median / denominator.median
    // Two significant digits below 0.1, so a very small ratio does not print as 0.00×.
    let digits = ratio >= 10 ? 1 : ratio >= 0.1 ? 2 : ratio >= 0.01 ? 3 : 4
    return fixed(ratio, digits) + "×"
}

func formatAllocations(_ measurement: Measurement?) -> String {
    guard let measurement else { return notAvailable }
    guard let allocations = measurement.allocationsPerOperation else { return "-" }
    return fixed(allocations, allocations < 100 ? 2 : 0)
}

/// "1,234,567".
func grouped(_ number: Int) -> String {
    let digits = String(number)
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result += "," }
        result.append(character)
    }
    return result
}

/// Prints rows as a Markdown table whose columns line up in a terminal too.
func printTable(header: [String], rightAligned: Set<Int>, rows: [[String]]) {
    func width(_ text: String) -> Int { text.count }
    var widths = header.map(width)
    for row in rows {
        for (column, cell) in row.enumerated() { widths[column] = max(widths[column], width(cell)) }
    }
    func line(_ cells: [String]) -> String {
        let padded = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - width(cell))
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }
        return "| " + padded.joined(separator: " | ") + " |"
    }
    print(line(header))
    print(
        "|"
            + widths.enumerated().map { column, width in
                rightAligned.contains(column)
                    ? String(repeating: "-", count: width + 1) + ":" : String(repeating: "-", count: width + 2)
            }.joined(separator: "|") + "|")
    for row in rows { print(line(row)) }
}

// MARK: - The machine

/// Writes `text` to the file at `path`, replacing it; false if that failed.
func writeTextFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    var text = text
    let written = text.withUTF8 { bytes in fwrite(bytes.baseAddress, 1, bytes.count, file) }
    return fclose(file) == 0 && written == text.utf8.count
}

/// The whole text of a small file, or nil.
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func cpuModel() -> String {
    guard let info = readTextFile("/proc/cpuinfo") else { return "unknown" }
    for line in info.split(separator: "\n") where line.hasPrefix("model name") {
        if let colon = line.firstIndex(of: ":") {
            return line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
    }
    return "unknown"
}

func loadAverage() -> String {
    guard let text = readTextFile("/proc/loadavg") else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func onlineProcessors() -> Int {
    Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

func currentDate() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S UTC", &parts)
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
