import Dispatch
import Streams
import StreamsTesting

/// Operators that turn values into other values, or gather them.
var transformingScenarios: [MarbleScenario] {
    [
        .overOneInput(
            name: "map", caption: "map { $0 * 10 }",
            pages: ["Publisher/map(_:)-93vzs", "Publishers/Map"],
            note: "Each value is transformed as it arrives; the completion passes through.",
            upstream: "-1-2--3-|", of: Int.self
        ) { upstream, _ in upstream.map { $0 * 10 } },
        .overOneInput(
            name: "compactMap", caption: "compactMap { Int($0) }",
            pages: ["Publisher/compactMap(_:)", "Publishers/CompactMap"],
            note: "Values the closure turns into `nil` are dropped; the others pass, transformed.",
            upstream: "-1-x-3--y-4|", of: String.self
        ) { upstream, _ in upstream.compactMap { Int($0) } },
        .overOneInput(
            name: "scan", caption: "scan(0, +)",
            pages: ["Publisher/scan(_:_:)", "Publishers/Scan"],
            note: "Each value is combined with the result so far, and every result is published.",
            upstream: "-1-2--3-4|", of: Int.self
        ) { upstream, _ in upstream.scan(0, +) },
        .overOneInput(
            name: "reduce", caption: "reduce(0, +)",
            pages: ["Publisher/reduce(_:_:)", "Publishers/Reduce"],
            note: "Values are combined as they arrive; only the final result is published, when the upstream finishes.",
            upstream: "-1-2--3-4|", of: Int.self
        ) { upstream, _ in upstream.reduce(0, +) },
        .overOneInput(
            name: "collect-count", caption: "collect(2)",
            pages: ["Publisher/collect(_:)", "Publishers/CollectByCount"],
            note: "Values are gathered into arrays of two; the last, shorter array goes out with the completion.",
            upstream: "-1-2-3-4-5|", of: Int.self, label: arrayLabel
        ) { upstream, _ in upstream.collect(2) },
        .overOneInput(
            name: "collect-by-time", caption: "collect(.byTime(scheduler, .seconds(4)))",
            pages: ["Publisher/collect(_:options:)", "Publishers/CollectByTime"],
            note:
                "Every four seconds, the values gathered in that window go out as one array (none when the window was empty); the rest go out with the completion.",
            upstream: "-1-2-3-------4|", of: Int.self, label: arrayLabel
        ) { upstream, scheduler in upstream.collect(.byTime(scheduler, .seconds(4))) },
        .overOneInput(
            name: "collect-by-time-or-count", caption: "collect(.byTimeOrCount(scheduler, .seconds(4), 2))",
            pages: ["Publisher/collect(_:options:)", "Publishers/CollectByTime"],
            note:
                "An array goes out when it holds two values, or when four seconds have passed since the last one went out, whichever comes first.",
            upstream: "-1-23------4|", of: Int.self, label: arrayLabel
        ) { upstream, scheduler in upstream.collect(.byTimeOrCount(scheduler, .seconds(4), 2)) },
        .overOneInput(
            name: "tryMap", caption: "tryMap { try parse($0) }",
            pages: ["Publisher/tryMap(_:)", "Publishers/TryMap"],
            note:
                "Each value is transformed as it arrives; when the closure throws (here `parse` does for anything but a number), the output fails with the error and the upstream is cancelled.",
            upstream: "-1-2-x-3-|", of: String.self
        ) { upstream, _ in upstream.tryMap { try parse($0) } },
        .overOneInput(
            name: "count", caption: "count()",
            pages: ["Publisher/count()", "Publishers/Count"],
            note: "Values are counted as they arrive; the count goes out when the upstream finishes.",
            upstream: "-a-b--c-|", of: String.self
        ) { upstream, _ in upstream.count() },
    ]
}

/// A number read from its digits; throws ``DiagramError`` for anything else.
func parse(_ text: String) throws -> Int {
    guard let number = Int(text) else { throw DiagramError() }
    return number
}

/// An array of numbers as Swift prints it: `[1, 2]`.
func arrayLabel(_ values: [Int]) -> String {
    "[" + values.map(String.init).joined(separator: ", ") + "]"
}
