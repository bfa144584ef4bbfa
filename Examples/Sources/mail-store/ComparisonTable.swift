import Mail

/// The table the example prints: for each write, how many observers woke with slices and with the
/// whole state, and which parts the slices woke.
struct ComparisonTable {
    /// One outcome per write, in order.
    let outcomes: [WriteOutcome]
    /// Every part the observers show, in the order the last column lists them.
    let parts: [MailPart]

    /// The table, one line per write under a header line.
    var text: String {
        let header = ["#", "write", "slices", "whole state", "parts woken, with slices"]
        let rows = outcomes.enumerated().map { index, outcome in
            [
                "\(index + 1)", outcome.write.label, grouped(outcome.slicing.total),
                grouped(outcome.wholeState.total), wokenParts(outcome.slicing),
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        // The counts are right-aligned; the words, left-aligned.
        let alignedRight: Set = [0, 2, 3]
        return ([header] + rows).map { cells in
            cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                return alignedRight.contains(column) ? padding + cells[column] : cells[column] + padding
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        .joined(separator: "\n")
    }

    /// How many wakes each way of observing slices caused over every write: the same number for
    /// each, since each way wakes an observer exactly when its part changed.
    var byWay: String {
        let counts = ObservationWay.slicing.map { way in
            "\(way) \(grouped(outcomes.reduce(0) { $0 + ($1.slicing.byWay[way] ?? 0) }))"
        }
        return "With slices, by way: \(counts.joined(separator: ", "))."
    }

    /// The closing line: the totals over every write.
    var summary: String {
        let slicing = outcomes.reduce(0) { $0 + $1.slicing.total }
        let wholeState = outcomes.reduce(0) { $0 + $1.wholeState.total }
        let ratio =
            slicing == 0 ? "" : ": \(oneDecimal(Double(wholeState) / Double(slicing)))× fewer"
        return "\(outcomes.count) writes: \(grouped(slicing)) wakes with slices, "
            + "\(grouped(wholeState)) with the whole state\(ratio)."
    }

    /// The parts whose observers woke, in the order of ``parts``.
    private func wokenParts(_ wakes: Wakes) -> String {
        let woken = wakes.byPart
        let names = parts.filter { woken[$0] != nil }.map(\.description)
        return names.isEmpty ? "nobody" : names.joined(separator: ", ")
    }
}

/// A count with a comma between each group of three digits, whatever the locale: "2,400".
func grouped(_ count: Int) -> String {
    let digits = String(count)
    return digits.enumerated().map { index, digit in
        index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
    }
    .joined()
}

/// A number with one decimal, such as "7.5", whatever the locale.
func oneDecimal(_ number: Double) -> String {
    let tenths = Int((number * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// A paragraph broken into lines of at most `width` characters, between words.
func wrapped(_ paragraph: String, width: Int) -> String {
    var lines: [String] = []
    var line = ""
    for word in paragraph.split(separator: " ") {
        if !line.isEmpty && line.count + 1 + word.count > width {
            lines.append(line)
            line = ""
        }
        line += line.isEmpty ? word : " \(word)"
    }
    return (lines + [line]).joined(separator: "\n")
}

extension String {
    /// The string without the spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
