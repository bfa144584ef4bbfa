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

    /// `events` as a table, with a first line for `dropped` events when there were any.
    static func table(of events: [TimelineEvent], dropped: Int) -> String {
        let rows = events.map { [milliseconds($0.time), $0.thread, $0.lane.description, $0.description] }
        let header = ["time (ms)", "thread", "lane", "event"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let time = String(repeating: " ", count: widths[0] - cells[0].count) + cells[0]
            let middle = (1..<cells.count - 1).map {
                cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count)
            }
            return ([time] + middle + [cells[cells.count - 1]]).joined(separator: "  ")
        }
        var lines: [String] = []
        if dropped > 0 { lines.append("(\(dropped) older \(dropped == 1 ? "event" : "events") dropped)") }
        lines.append(line(header))
        lines += rows.map(line)
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
