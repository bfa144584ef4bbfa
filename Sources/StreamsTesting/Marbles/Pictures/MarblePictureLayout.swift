/// Where everything of a ``MarblePicture`` goes, in points: the lines with their titles, the
/// operator's box between inputs and outputs, the time ruler, and the legend of the symbols used.
///
/// Every size is computed from the content alone (text widths from character counts in a monospaced
/// font), so the same content always gives the same layout.
struct MarblePictureLayout {
    /// One line, placed.
    struct Row {
        var line: MarbleLine<Double>
        /// The vertical centre of the line.
        var y: Double
    }

    /// One mark of a segment, placed.
    struct PlacedMark {
        var event: MarblePictureEvent
        /// The horizontal centre.
        var x: Double
        /// How wide it is drawn.
        var width: Double
    }

    static let columnWidth = 40.0
    static let rowHeight = 52.0
    static let margin = 12.0
    static let marbleHeight = 30.0
    static let boxHeight = 40.0
    static let rulerHeight = 34.0
    static let legendHeight = 30.0
    /// The width of a character of the monospaced font at 13 points, and of the box's at 14.
    static let characterWidth = 7.9
    static let captionCharacterWidth = 8.5
    /// The width of a character of the titles' font at 13 points, generously.
    static let titleCharacterWidth = 7.4

    let caption: String
    let columns: Int
    let rulerLabel: (Int) -> String
    let inputs: [Row]
    let outputs: [Row]
    /// Where the time axis starts and ends.
    let axisStart: Double
    let axisEnd: Double
    let width: Double
    let boxTop: Double
    let rulerY: Double
    let legendY: Double?
    let height: Double
    /// The end symbols the picture uses, in the legend's order.
    let legend: [MarblePictureEvent]

    init(caption: String, lines: [MarbleLine<Double>], columns: Int, rulerLabel: @escaping (Int) -> String) {
        self.caption = caption
        self.columns = columns
        self.rulerLabel = rulerLabel
        let titleWidth = max(64, (lines.map { Double($0.title.count) }.max() ?? 0) * Self.titleCharacterWidth + 16)
        // A wide marble near the start reaches back past the axis's start: room for it, so that it
        // does not cover the longest title (whose room ends about 20 points before the axis).
        let reach =
            lines.flatMap(\.segments).flatMap(\.marks).map { mark -> Double in
                guard case .value(let label) = mark.event else { return 0 }
                return Self.marbleWidth(label) / 2 - mark.time * Self.columnWidth
            }.max() ?? 0
        axisStart = (Self.margin + titleWidth + 8 + max(0, reach - 20)).rounded()
        axisEnd = axisStart + Double(columns) * Self.columnWidth
        let captionWidth =
            caption.isEmpty ? 0 : Double(caption.count) * Self.captionCharacterWidth + 2 * Self.margin + 32
        width = max(axisEnd + 2 * Self.margin, captionWidth).rounded(.up)

        var y = Self.margin
        var inputs: [Row] = []
        for line in lines where !line.isOutput {
            inputs.append(Row(line: line, y: y + Self.rowHeight / 2))
            y += Self.rowHeight
        }
        self.inputs = inputs
        // A picture without a caption (a timeline) has no operator's box between its lines.
        boxTop = y + 6
        y = caption.isEmpty ? y : boxTop + Self.boxHeight + 6
        var outputs: [Row] = []
        for line in lines where line.isOutput {
            outputs.append(Row(line: line, y: y + Self.rowHeight / 2))
            y += Self.rowHeight
        }
        self.outputs = outputs
        rulerY = y + 8
        y = rulerY + Self.rulerHeight
        let used = Set(lines.flatMap(\.segments).flatMap(\.marks).map(\.event.legendKind))
        legend = [MarblePictureEvent.finished, .failed(""), .cancelled].filter { used.contains($0.legendKind) }
        legendY = legend.isEmpty ? nil : y + Self.legendHeight / 2
        height = (legend.isEmpty ? y : y + Self.legendHeight) + Self.margin - 8
    }

    /// The horizontal position of a time, in columns.
    func x(_ position: Double) -> Double {
        axisStart + position * Self.columnWidth
    }

    /// How wide a value's marble is: a circle for a label of up to two characters, else a pill.
    static func marbleWidth(_ label: String) -> Double {
        label.count <= 2 ? marbleHeight : max(marbleHeight, Double(label.count) * characterWidth + 16)
    }

    /// The marks of a segment, placed: each at its time, except that marks at the same time as the
    /// one before are set side by side after it, in order.
    func placedMarks(_ segment: MarbleLine<Double>.Segment) -> [PlacedMark] {
        var placed: [PlacedMark] = []
        var previousTime = -Double.infinity
        for mark in segment.marks {
            let width: Double
            switch mark.event {
            case .value(let label): width = Self.marbleWidth(label)
            case .failed: width = 16
            case .finished, .cancelled, .subscribed: width = 10
            }
            var x = x(mark.time)
            if let last = placed.last, mark.time - previousTime < 0.005 {
                x = max(x, last.x + last.width / 2 + 4 + width / 2)
            }
            placed.append(PlacedMark(event: mark.event, x: x, width: width))
            previousTime = mark.time
        }
        return placed
    }

    /// Which columns the ruler labels: every one, or every few when labels are wider than a column.
    var rulerStep: Int {
        let widest = Double((0...columns).map { rulerLabel($0).count }.max() ?? 1) * 6.6 + 8
        return max(1, Int((widest / Self.columnWidth).rounded(.up)))
    }
}

extension MarblePictureEvent {
    /// The event with its details removed, to tell which symbols a picture uses.
    var legendKind: Int {
        switch self {
        case .subscribed: 0
        case .value: 1
        case .finished: 2
        case .failed: 3
        case .cancelled: 4
        }
    }
}
