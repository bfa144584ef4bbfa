extension TimelineRecorder {
    /// The events kept, as a plain-text table, oldest first: time (milliseconds on the recorder's
    /// clock), thread, lane and event, one line each; for a terminal, or a failing test's message.
    ///
    /// ```
    /// time (ms)  thread  lane        event
    ///     0.000  main    numbers #1  subscribed
    ///     0.004  main    numbers #1  requested unlimited
    ///     0.011  main    numbers #1  value 1
    ///     0.015  main    numbers #1  cancelled (cancel() called)
    /// ```
    ///
    /// When older events were dropped to keep within ``capacity``, a first line says how many.
    public var table: String {
        let (events, dropped) = snapshot()
        return Self.table(of: events, dropped: dropped)
    }

    /// The census (``census``) as plain text, grouped by pipeline: for each, its chain, then a line
    /// per live subscription, upstream first, with its thread, when it started and how long it has
    /// been alive (milliseconds on the recorder's clock).
    ///
    /// ```
    /// pipeline #1: CurrentValueSubject → Map → RemoveDuplicates
    ///   lane                    thread  started (ms)  alive (ms)
    ///   CurrentValueSubject #3  main           0.000    5000.000
    ///   Map #2                  main           0.000    5000.000
    ///   RemoveDuplicates #1     main           0.000    5000.000
    /// ```
    ///
    /// With nothing alive, it says so: `no subscriptions alive`.
    public var censusTable: String {
        Self.censusTable(of: census)
    }

    /// `entries` as the census table.
    static func censusTable(of entries: [TimelineCensusEntry]) -> String {
        guard !entries.isEmpty else { return "no subscriptions alive" }
        var pipelines: [Int: [TimelineCensusEntry]] = [:]
        for entry in entries { pipelines[entry.lane.pipeline, default: []].append(entry) }
        return pipelines.keys.sorted().compactMap { pipeline -> String? in
            guard let members = pipelines[pipeline] else { return nil }
            let ordered = members.sorted {
                ($0.chain.count, $1.lane.subscription) > ($1.chain.count, $0.lane.subscription)
            }
            let chain = ordered.first?.chain.joined(separator: " → ") ?? ""
            let rows = ordered.map { [$0.lane.description, $0.thread, milliseconds($0.started), milliseconds($0.age)] }
            return
                (["pipeline #\(pipeline): \(chain)"]
                + columns(["lane", "thread", "started (ms)", "alive (ms)"], rows, rightAligned: [2, 3]).map {
                    "  " + $0
                })
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `header` and `rows` as lines of columns two spaces apart, the columns at `rightAligned`
    /// aligned to the right; the last column is not padded unless it is aligned to the right.
    static func columns(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { cells in
            cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                if rightAligned.contains(column) { return padding + cells[column] }
                return column == cells.count - 1 ? cells[column] : cells[column] + padding
            }.joined(separator: "  ")
        }
    }

    /// `events` as a table, with a first line for `dropped` events when there were any.
    static func table(of events: [TimelineEvent], dropped: Int) -> String {
        let rows = events.map { [milliseconds($0.time), $0.thread, $0.lane.description, $0.description] }
        var lines: [String] = []
        if dropped > 0 { lines.append("(\(dropped) older \(dropped == 1 ? "event" : "events") dropped)") }
        lines += columns(["time (ms)", "thread", "lane", "event"], rows, rightAligned: [0])
        return lines.joined(separator: "\n")
    }

    /// A duration in milliseconds, with three decimals.
    static func milliseconds(_ duration: Duration) -> String {
        threeDecimals(duration, thousandthsPerSecond: 1_000_000)
    }

    /// A duration in a unit with three decimals, the unit given by how many thousandths of it make a
    /// second: `1.500` for 1,500 thousandths.
    static func threeDecimals(_ duration: Duration, thousandthsPerSecond: Int64) -> String {
        let (seconds, attoseconds) = duration.components
        let thousandths =
            seconds * thousandthsPerSecond + attoseconds / (1_000_000_000_000_000_000 / thousandthsPerSecond)
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = thousandths.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
