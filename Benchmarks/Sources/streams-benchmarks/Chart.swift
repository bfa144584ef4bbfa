// `--chart`: the medians of a run as an SVG bar chart, written as plain text (no dependencies).
//
// One group of horizontal bars per scenario, under the scenario's title, one bar per implementation
// in the order of the table; the time axis is logarithmic, with a gridline at every power of ten
// (labelled, at the top and the bottom) and fainter ones at 2–9 times each. An implementation that
// lacks a scenario gets "—" instead of a bar. The background is white, so that the chart stays
// readable on a dark page (GitHub's dark theme shows an SVG as it is).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fill colours, from the Okabe–Ito palette (distinguishable with the common colour-vision
/// deficiencies).
private func color(_ implementation: Implementation) -> String {
    switch implementation {
    case .streams: "#0072B2"
    case .openCombine: "#E69F00"
    case .asyncAlgorithms: "#009E73"
    case .floor: "#8C8C8C"
    }
}

/// Text with the characters XML gives a meaning escaped.
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

/// A coordinate, with one decimal.
private func coordinate(_ value: Double) -> String {
    fixed(value, 1)
}

/// "1 ns", "10 µs", "1 s": the label of the power of ten `10^exponent` nanoseconds.
private func powerOfTenLabel(_ exponent: Int) -> String {
    let units = ["ns", "µs", "ms", "s"]
    let unit = min(max(exponent, 0) / 3, units.count - 1)
    var value = 1.0
    for _ in 0..<(exponent - unit * 3) { value *= 10 }
    for _ in 0..<max(0, unit * 3 - exponent) { value /= 10 }
    let number = value >= 1 ? String(Int(value)) : fixed(value, -exponent)
    return "\(number) \(units[unit])"
}

/// The median of a measurement and its label, or the label that stands in for a bar.
private func bar(_ measurement: Measurement?) -> (nanoseconds: Double?, label: String) {
    guard let measurement else { return (nil, "— (not available)") }
    if measurement.nanosecondsPerOperation.isEmpty {
        return (nil, measurement.unboundedBacklog != nil ? "unbounded backlog" : "—")
    }
    let median = measurement.median
    let unit = TimeUnit.fitting(median)
    return (median, "\(unit.format(median)) \(unit.name)")
}

/// The chart of `results` as SVG text.
func barChart(
    results: [(Scenario, [Implementation: Measurement])], implementations: [Implementation], subtitle: String
) -> String {
    // Layout, in pixels.
    let width = 980.0
    let plotLeft = 44.0
    let plotRight = width - 110
    let plotWidth = plotRight - plotLeft
    let titleRow = 20.0
    let barHeight = 13.0
    let barGap = 2.0
    let groupGap = 14.0
    let headerHeight = 112.0
    let footerHeight = 64.0
    let groupHeight = titleRow + Double(implementations.count) * (barHeight + barGap) + groupGap
    let plotTop = headerHeight
    let plotBottom = plotTop + Double(results.count) * groupHeight
    let height = plotBottom + footerHeight

    // The logarithmic axis: whole powers of ten around every median.
    let medians = results.flatMap { _, measured in
        implementations.compactMap { bar(measured[$0]).nanoseconds }.filter { $0 > 0 }
    }
    var lowExponent = 0
    var highExponent = 3
    if let smallest = medians.min(), let largest = medians.max() {
        lowExponent = Int(log10(smallest).rounded(.down))
        highExponent = max(Int(log10(largest).rounded(.up)), lowExponent + 1)
    }
    func x(_ nanoseconds: Double) -> Double {
        let fraction = (log10(nanoseconds) - Double(lowExponent)) / Double(highExponent - lowExponent)
        return plotLeft + min(max(fraction, 0), 1) * plotWidth
    }
    func power(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(exponent) { value *= 10 }
        return exponent < 0 ? 1 / value : value
    }

    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
        viewBox="0 0 \(Int(width)) \(Int(height))" font-family="-apple-system, BlinkMacSystemFont, \
        'Segoe UI', Helvetica, Arial, sans-serif" font-size="12" fill="#1a1a1a">

        """
    func add(_ element: String) { svg += "  " + element + "\n" }
    add("<title>Streams benchmarks: time per operation, median of the rounds (log scale)</title>")
    add("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
    add(
        "<text x=\"\(coordinate(plotLeft))\" y=\"26\" font-size=\"18\" font-weight=\"bold\">"
            + "Streams benchmarks: time per operation (shorter is faster)</text>")
    add("<text x=\"\(coordinate(plotLeft))\" y=\"46\" fill=\"#555555\">\(escaped(subtitle))</text>")

    // Legend.
    var legendX = plotLeft
    for implementation in implementations {
        add(
            "<rect x=\"\(coordinate(legendX))\" y=\"58\" width=\"14\" height=\"14\" "
                + "fill=\"\(color(implementation))\"/>")
        add("<text x=\"\(coordinate(legendX + 20))\" y=\"70\">\(escaped(implementation.rawValue))</text>")
        legendX += 20 + Double(implementation.rawValue.count) * 7.5 + 24
    }

    // Gridlines and the axis labels at the top and the bottom.
    for exponent in lowExponent...highExponent {
        let lineX = coordinate(x(power(exponent)))
        add(
            "<line x1=\"\(lineX)\" y1=\"\(coordinate(plotTop - 6))\" x2=\"\(lineX)\" "
                + "y2=\"\(coordinate(plotBottom))\" stroke=\"#b0b0b0\" stroke-width=\"1\"/>")
        let label = escaped(powerOfTenLabel(exponent))
        add("<text x=\"\(lineX)\" y=\"\(coordinate(plotTop - 10))\" text-anchor=\"middle\">\(label)</text>")
        add("<text x=\"\(lineX)\" y=\"\(coordinate(plotBottom + 16))\" text-anchor=\"middle\">\(label)</text>")
        guard exponent < highExponent else { continue }
        for multiple in 2...9 {
            let minorX = coordinate(x(Double(multiple) * power(exponent)))
            add(
                "<line x1=\"\(minorX)\" y1=\"\(coordinate(plotTop))\" x2=\"\(minorX)\" "
                    + "y2=\"\(coordinate(plotBottom))\" stroke=\"#e6e6e6\" stroke-width=\"1\"/>")
        }
    }
    add(
        "<line x1=\"\(coordinate(plotLeft))\" y1=\"\(coordinate(plotTop - 6))\" x2=\"\(coordinate(plotLeft))\" "
            + "y2=\"\(coordinate(plotBottom))\" stroke=\"#333333\" stroke-width=\"1\"/>")
    add(
        "<text x=\"\(coordinate(plotLeft + plotWidth / 2))\" y=\"\(coordinate(plotBottom + 38))\" "
            + "text-anchor=\"middle\" font-weight=\"bold\">time per operation (median of the rounds; "
            + "logarithmic scale); the operation is named at the end of each title</text>")
    let axisMiddle = (plotTop + plotBottom) / 2
    add(
        "<text x=\"18\" y=\"\(coordinate(axisMiddle))\" text-anchor=\"middle\" font-weight=\"bold\" "
            + "transform=\"rotate(-90 18 \(coordinate(axisMiddle)))\">scenario</text>")

    // The groups.
    for (index, (scenario, measured)) in results.enumerated() {
        let top = plotTop + Double(index) * groupHeight
        let title = "\(scenario.id) · \(scenario.title) — per \(scenario.unit)"
        add(
            "<text x=\"\(coordinate(plotLeft + 4))\" y=\"\(coordinate(top + titleRow - 6))\" font-weight=\"bold\" "
                + "stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\">\(escaped(title))</text>")
        for (row, implementation) in implementations.enumerated() {
            let barTop = top + titleRow + Double(row) * (barHeight + barGap)
            let textY = coordinate(barTop + barHeight - 2.5)
            let (nanoseconds, label) = bar(measured[implementation])
            var labelX = plotLeft + 4
            var labelColor = "#777777"
            if let nanoseconds {
                let barEnd = max(x(nanoseconds), plotLeft + 1)
                add(
                    "<rect x=\"\(coordinate(plotLeft))\" y=\"\(coordinate(barTop))\" "
                        + "width=\"\(coordinate(barEnd - plotLeft))\" height=\"\(coordinate(barHeight))\" "
                        + "fill=\"\(color(implementation))\"><title>\(escaped(implementation.rawValue)): "
                        + "\(escaped(label))</title></rect>")
                labelX = barEnd + 4
                labelColor = "#1a1a1a"
            }
            add(
                "<text x=\"\(coordinate(labelX))\" y=\"\(textY)\" font-size=\"11\" fill=\"\(labelColor)\">"
                    + "\(escaped(label))</text>")
        }
    }
    svg += "</svg>\n"
    return svg
}
