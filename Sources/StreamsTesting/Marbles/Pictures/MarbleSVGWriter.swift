/// Writes a ``MarblePictureLayout`` as an SVG document in the colours of a ``MarblePalette``.
///
/// The output depends on nothing but its input: numbers are written with at most two decimals,
/// elements in a fixed order, so the same picture is the same bytes.
struct MarbleSVGWriter {
    let layout: MarblePictureLayout
    let palette: MarblePalette
    let title: String
    let description: String

    static let sansFont = "-apple-system, BlinkMacSystemFont, 'Helvetica Neue', Helvetica, Arial, sans-serif"
    static let monospacedFont = "'SF Mono', SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"

    var document: String {
        var svg: [String] = []
        let (width, height) = (number(layout.width), number(layout.height))
        svg.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
                + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"marble-title marble-desc\">")
        svg.append("<title id=\"marble-title\">\(escaped(title))</title>")
        svg.append("<desc id=\"marble-desc\">\(escaped(description))</desc>")
        svg.append(
            "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" "
                + "markerHeight=\"8\" orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"\(palette.line)\"/>"
                + "</marker></defs>")
        let fills = fillColours()
        for row in layout.inputs + layout.outputs { svg += self.row(row, fills: fills) }
        svg += box()
        svg += ruler()
        svg += legend()
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    // MARK: Parts

    private func row(_ row: MarblePictureLayout.Row, fills: [String: String]) -> [String] {
        var parts: [String] = []
        let y = row.y
        parts.append(
            text(
                row.line.title, x: MarblePictureLayout.margin, y: y, size: 13, colour: palette.secondaryText,
                anchor: "start", font: Self.sansFont, weight: row.line.isOutput ? "600" : nil))
        for segment in row.line.segments {
            let marks = layout.placedMarks(segment)
            let start = layout.x(segment.start)
            parts.append(line(x1: start, y1: y - 6, x2: start, y2: y + 6, colour: palette.line, width: 1.5))
            if let last = marks.last, last.event.ends {
                parts.append(line(x1: start, y1: y, x2: last.x, y2: y, colour: palette.line, width: 1.5))
            } else {
                parts.append(
                    line(
                        x1: start, y1: y, x2: layout.axisEnd + 6, y2: y, colour: palette.line, width: 1.5,
                        extra: " marker-end=\"url(#arrow)\""))
            }
            for mark in marks { parts += self.mark(mark, y: y, fills: fills) }
        }
        return parts
    }

    private func mark(_ mark: MarblePictureLayout.PlacedMark, y: Double, fills: [String: String]) -> [String] {
        let x = mark.x
        switch mark.event {
        case .value(let label):
            let height = MarblePictureLayout.marbleHeight
            let fill = fills[label] ?? palette.fills[0]
            return [
                "<rect x=\"\(number(x - mark.width / 2))\" y=\"\(number(y - height / 2))\" width=\"\(number(mark.width))\" "
                    + "height=\"\(number(height))\" rx=\"\(number(height / 2))\" fill=\"\(fill)\" "
                    + "stroke=\"\(palette.marbleStroke)\" stroke-width=\"1.5\"/>",
                text(
                    label, x: x, y: y, size: 13, colour: palette.marbleText, anchor: "middle", font: Self.monospacedFont
                ),
            ]
        case .finished:
            return [line(x1: x, y1: y - 14, x2: x, y2: y + 14, colour: palette.text, width: 3)]
        case .failed:
            return [
                line(x1: x - 7, y1: y - 7, x2: x + 7, y2: y + 7, colour: palette.failure, width: 3),
                line(x1: x - 7, y1: y + 7, x2: x + 7, y2: y - 7, colour: palette.failure, width: 3),
            ]
        case .cancelled:
            return [cancellationMark(x: x, y: y)]
        case .subscribed:
            return []
        }
    }

    private func cancellationMark(x: Double, y: Double) -> String {
        line(
            x1: x, y1: y - 14, x2: x, y2: y + 14, colour: palette.cancellation, width: 2.5,
            extra: " stroke-dasharray=\"4 3\"")
    }

    private func box() -> [String] {
        guard !layout.caption.isEmpty else { return [] }
        let top = layout.boxTop
        let height = MarblePictureLayout.boxHeight
        let left = MarblePictureLayout.margin
        let width = layout.width - 2 * left
        return [
            "<rect x=\"\(number(left))\" y=\"\(number(top))\" width=\"\(number(width))\" height=\"\(number(height))\" "
                + "rx=\"8\" fill=\"\(palette.boxFill)\" stroke=\"\(palette.boxStroke)\" stroke-width=\"1\"/>",
            text(
                layout.caption, x: left + width / 2, y: top + height / 2, size: 14, colour: palette.text,
                anchor: "middle", font: Self.monospacedFont),
        ]
    }

    private func ruler() -> [String] {
        let y = layout.rulerY
        var parts = [line(x1: layout.axisStart, y1: y, x2: layout.axisEnd, y2: y, colour: palette.line, width: 1)]
        let step = layout.rulerStep
        for column in 0...layout.columns {
            let x = layout.x(Double(column))
            let labelled = column.isMultiple(of: step)
            parts.append(line(x1: x, y1: y, x2: x, y2: y + (labelled ? 6 : 3), colour: palette.line, width: 1))
            if labelled {
                parts.append(
                    text(
                        layout.rulerLabel(column), x: x, y: y + 17, size: 11, colour: palette.secondaryText,
                        anchor: "middle", font: Self.sansFont))
            }
        }
        parts.append(
            text(
                "time", x: MarblePictureLayout.margin, y: y + 10, size: 11, colour: palette.secondaryText,
                anchor: "start", font: Self.sansFont))
        return parts
    }

    private func legend() -> [String] {
        guard let y = layout.legendY else { return [] }
        var parts: [String] = []
        var x = layout.axisStart
        for symbol in layout.legend {
            let word: String
            switch symbol {
            case .finished:
                parts.append(line(x1: x, y1: y - 8, x2: x, y2: y + 8, colour: palette.text, width: 3))
                word = "finished"
            case .failed:
                parts.append(line(x1: x - 5, y1: y - 5, x2: x + 5, y2: y + 5, colour: palette.failure, width: 2.5))
                parts.append(line(x1: x - 5, y1: y + 5, x2: x + 5, y2: y - 5, colour: palette.failure, width: 2.5))
                word = "failed"
            case .cancelled:
                parts.append(
                    line(
                        x1: x, y1: y - 9, x2: x, y2: y + 9, colour: palette.cancellation, width: 2.5,
                        extra: " stroke-dasharray=\"4 3\""))
                word = "cancelled"
            case .subscribed, .value:
                continue
            }
            parts.append(
                text(
                    word, x: x + 10, y: y, size: 12, colour: palette.secondaryText, anchor: "start", font: Self.sansFont
                ))
            x += 10 + Double(word.count) * 7 + 24
        }
        return parts
    }

    // MARK: Elements

    private func line(
        x1: Double, y1: Double, x2: Double, y2: Double, colour: String, width: Double, extra: String = ""
    ) -> String {
        "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" "
            + "stroke=\"\(colour)\" stroke-width=\"\(number(width))\" stroke-linecap=\"round\"\(extra)/>"
    }

    private func text(
        _ content: String, x: Double, y: Double, size: Double, colour: String, anchor: String, font: String,
        weight: String? = nil
    ) -> String {
        // A baseline a third of the size below the centre puts the text's middle on `y`.
        let baseline = y + size * 0.35
        let bold = weight.map { " font-weight=\"\($0)\"" } ?? ""
        return
            "<text x=\"\(number(x))\" y=\"\(number(baseline))\" font-family=\"\(font)\" font-size=\"\(number(size))\""
            + "\(bold) fill=\"\(colour)\" text-anchor=\"\(anchor)\">\(escaped(content))</text>"
    }

    /// Each value's fill: the palette's colours in the order values first appear, inputs first.
    private func fillColours() -> [String: String] {
        var fills: [String: String] = [:]
        for row in layout.inputs + layout.outputs {
            for mark in row.line.segments.flatMap(\.marks) {
                guard case .value(let label) = mark.event, fills[label] == nil else { continue }
                fills[label] = palette.fills[fills.count % palette.fills.count]
            }
        }
        return fills
    }

    /// A coordinate with at most two decimals, without trailing zeros.
    private func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100
        let fraction = abs(hundredths) % 100
        guard fraction != 0 else { return sign + String(whole) }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return "\(sign)\(whole).\(digits)"
    }

    private func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
