public import Streams

/// A picture of what a ``Streams/TimelineRecorder`` recorded, drawn as the marble diagrams are: a
/// line for each subscription through a marked point, from the time it started, with its values as
/// marbles and its end (finished, failed or cancelled) as the diagrams' symbols; time runs left to
/// right on a ruler.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let recorder = TimelineRecorder(clock: scheduler.timelineClock)
/// // … run a pipeline marked with recordTimeline(_:to:) on the scheduler …
/// let picture = TimelinePicture(recorder)
/// let light = picture.svg()
/// let dark = picture.svg(appearance: .dark)
/// ```
///
/// Demand is not drawn (the text table and the trace show it). A value is written in its marble as
/// the recorder described it, cut to ``labelLengthLimit`` characters.
public struct TimelinePicture: Sendable {
    /// The colours a picture is drawn in.
    public enum Appearance: Sendable {
        /// Dark text and lines, for a light page.
        case light
        /// Light text and lines, for a dark page.
        case dark
    }

    /// The most characters of a value written in its marble.
    public static let labelLengthLimit = 12

    /// The events drawn, oldest first.
    public let events: [TimelineEvent]

    /// How much time one column of the picture stands for.
    public let frame: Duration

    /// Creates a picture of the events `recorder` keeps now.
    ///
    /// - Parameters:
    ///   - recorder: The recorder whose events are drawn.
    ///   - frame: How much time one column stands for; by default a round amount (1, 2 or 5 of a
    ///     unit) that fits the whole timeline in about 16 columns. A frame of zero or less is taken
    ///     as the default.
    public init(_ recorder: TimelineRecorder, frame: Duration? = nil) {
        let events = recorder.events
        self.events = events
        let last = events.map(\.time).max() ?? .zero
        if let frame, frame > .zero {
            self.frame = frame
        } else {
            self.frame = Self.roundFrame(covering: last, columns: 16)
        }
    }

    /// What the picture shows, in words: each subscription's values and end, with their times.
    public var altText: String {
        let lines = self.lines
        let words = MarblePictureWords(caption: "", lines: lines) { ReadableTime.describe(nanoseconds: $0) }
        let subscriptions = lines.count == 1 ? "1 subscription" : "\(lines.count) subscriptions"
        return (["A timeline of \(subscriptions)."] + words.lineSentences).joined(separator: " ")
    }

    /// The picture as an SVG document, in the colours of `appearance`, carrying ``altText`` as its
    /// accessible description.
    public func svg(appearance: Appearance = .light) -> String {
        let lines = self.lines
        let frameNanoseconds = Self.nanoseconds(frame)
        let last = lines.flatMap(\.segments).flatMap { [$0.start] + $0.marks.map(\.time) }.max() ?? 0
        let columns = min(max(Int((Double(last) / Double(frameNanoseconds)).rounded(.up)) + 1, 4), 400)
        let layout = MarblePictureLayout(
            caption: "",
            lines: lines.map { line in line.placed { Self.position(of: $0, frame: frameNanoseconds, columns: columns) }
            },
            columns: columns,
            rulerLabel: { ReadableTime.describe(nanoseconds: frameNanoseconds * $0) })
        return MarbleSVGWriter(
            layout: layout, palette: appearance == .light ? .light : .dark,
            title: "A timeline of \(Set(events.map(\.lane.name)).sorted().joined(separator: ", "))",
            description: altText
        ).document
    }

    /// A line for each lane, in the order of their first events, timed in nanoseconds.
    var lines: [MarbleLine<Int>] {
        var lines: [MarbleLine<Int>] = []
        var index: [TimelineLane: Int] = [:]
        for event in events {
            let time = Self.nanoseconds(event.time)
            let line: Int
            if let known = index[event.lane] {
                line = known
            } else {
                line = lines.count
                index[event.lane] = line
                lines.append(MarbleLine(title: event.lane.description, isOutput: false))
                // A lane whose start was dropped from the recorder starts at its first event kept.
                if event.kind != .subscribed { lines[line].record(.subscribed, at: time) }
            }
            switch event.kind {
            case .subscribed: lines[line].record(.subscribed, at: time)
            case .requested: break
            case .value(let value): lines[line].record(.value(Self.label(value)), at: time)
            case .finished: lines[line].record(.finished, at: time)
            case .failed(let error): lines[line].record(.failed(error), at: time)
            case .cancelled: lines[line].record(.cancelled, at: time)
            }
        }
        return lines
    }

    /// A value's label, cut to ``labelLengthLimit`` characters.
    static func label(_ value: String) -> String {
        value.count <= labelLengthLimit ? value : String(value.prefix(labelLengthLimit - 1)) + "…"
    }

    /// Where a time falls, in columns, to a hundredth of a column, and no further than the last.
    static func position(of nanoseconds: Int, frame: Int, columns: Int) -> Double {
        min((Double(nanoseconds) / Double(frame) * 100).rounded() / 100, Double(columns))
    }

    /// A round frame, 1, 2 or 5 of a power of ten nanoseconds, at least a microsecond, that fits
    /// `duration` in `columns` columns.
    static func roundFrame(covering duration: Duration, columns: Int) -> Duration {
        let needed = max(nanoseconds(duration) / columns, 1)
        var scale = 1_000
        while true {
            for step in [1, 2, 5] where step * scale >= needed { return .nanoseconds(step * scale) }
            scale *= 10
        }
    }

    /// A duration in whole nanoseconds, clamped to what an `Int` holds.
    static func nanoseconds(_ duration: Duration) -> Int {
        duration.clampedNanoseconds
    }
}
