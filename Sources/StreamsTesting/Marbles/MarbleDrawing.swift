/// Draws timed events as a marble diagram, by the rules ``MarbleDiagram`` parses: one character a
/// frame, `-` for a frame where nothing happens, `(…)` for the events of one frame, nothing after
/// the last event. Parsing the drawing gives back the same events at the same frames.
struct MarbleDrawing {
    /// One symbol to draw at a frame, and what it stands for when it is the placeholder.
    struct Mark {
        var frame: Int
        var symbol: Character
        /// For a value drawn as ``MarbleDrawing/placeholder``: the value's description.
        var undrawable: String?
    }

    /// The character a value is drawn as when it has no character of its own.
    static let placeholder: Character = "?"

    /// The diagram.
    private(set) var diagram = ""

    /// For each placeholder, in order: its 1-based column and the value it stands for.
    private(set) var legend: [(column: Int, value: String)] = []

    /// Draws `marks`, which are in order of their frames.
    ///
    /// Throws a message when a frame is taken by an earlier group: a group of `n` events takes
    /// `n + 2` frames, so the next event must be at least that far on.
    init(_ marks: [Mark]) throws(MarbleDrawingError) {
        var nextFree = 0
        var index = marks.startIndex
        while index < marks.endIndex {
            let frame = marks[index].frame
            var end = index + 1
            while end < marks.endIndex && marks[end].frame == frame { end += 1 }
            let group = marks[index..<end]
            guard frame >= nextFree else {
                throw MarbleDrawingError(
                    "the events at frame \(frame) fall inside the group drawn before them; a group of n events takes n + 2 frames, so draw with a shorter frame"
                )
            }
            diagram += String(repeating: "-", count: frame - nextFree)
            if group.count > 1 { diagram += "(" }
            for mark in group {
                diagram.append(mark.symbol)
                if let value = mark.undrawable { legend.append((diagram.count, value)) }
            }
            if group.count > 1 { diagram += ")" }
            nextFree = frame + (group.count > 1 ? group.count + 2 : 1)
            index = end
        }
    }

    /// The legend's lines, such as `? at column 6: 42`.
    var legendLines: [String] {
        legend.map { "\(Self.placeholder) at column \($0.column): \($0.value)" }
    }

    /// The diagram, with the legend after it when there are placeholders:
    /// `--a--?  (? at column 6: 42)`.
    var diagramWithLegend: String {
        legend.isEmpty ? diagram : "\(diagram)  (\(legendLines.joined(separator: "; ")))"
    }
}

/// Why a timeline cannot be drawn as a marble diagram.
struct MarbleDrawingError: Error {
    var problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    /// What `marbles(…)` returns instead of a diagram, so that a comparison fails with the reason.
    var placeholderDiagram: String {
        "cannot draw: \(problem)"
    }
}

/// Where `time` falls when each frame lasts `frame`.
enum MarbleFramePosition: Equatable {
    /// Before time zero.
    case beforeZero
    /// More frames from time zero than a diagram can count (a time near the end of the scheduler's
    /// clock, with a short frame).
    case tooFar
    /// The last frame at or before `time`, and whether `time` is exactly on it.
    case frame(Int, exact: Bool)
}

/// Where `time` falls when each frame lasts `frame`.
/// `frame` is longer than zero (``Collection/marbleDrawing(frame:time:symbol:)`` checks).
func marbleFrame<Stride: SignedNumeric & Comparable>(of time: Stride, frame: Stride) -> MarbleFramePosition {
    assert(frame > .zero, "A marble frame must last longer than zero.")
    guard time >= .zero else { return .beforeZero }
    func span(_ count: Int) -> Stride {
        frame * Stride(exactly: count)!
    }
    // Find the last frame at or before `time`: double to overshoot, then halve back. A stride type
    // whose products stop at its largest value never overshoots a time that is that value: stop
    // doubling well before the count itself would overflow.
    var high = 1
    while span(high) <= time {
        guard high <= Int.max / 4 else { return .tooFar }
        high *= 2
    }
    var low = 0
    while high - low > 1 {
        let middle = (low + high) / 2
        if span(middle) <= time { low = middle } else { high = middle }
    }
    return .frame(low, exact: span(low) == time)
}

/// The character `value` is drawn as without a dictionary: its description, when that is one
/// character and not a marble symbol.
func marbleCharacter(describing value: some Any) -> Character? {
    let text = String(describing: value)
    guard text.count == 1, let character = text.first, !MarbleDiagram.symbols.contains(character) else {
        return nil
    }
    return character
}

extension Collection {
    /// Draws timed events at their frames; `time` and `symbol` read each element, `symbol`
    /// returning `nil` for what is not drawn and a placeholder with its description for what cannot be.
    func marbleDrawing<Stride: SignedNumeric & Comparable>(
        frame: Stride, time: (Element) -> Stride, symbol: (Element) -> MarbleSymbolChoice?
    ) throws(MarbleDrawingError) -> MarbleDrawing {
        guard frame > .zero else {
            throw MarbleDrawingError("a marble frame must last longer than zero, not \(ReadableTime.describe(frame))")
        }
        var marks: [MarbleDrawing.Mark] = []
        for element in self {
            guard let choice = symbol(element) else { continue }
            let (index, exact): (Int, Bool)
            switch marbleFrame(of: time(element), frame: frame) {
            case .beforeZero:
                throw MarbleDrawingError(
                    "\(choice.describedEvent) happened before time zero, at \(ReadableTime.describe(time(element)))")
            case .tooFar:
                throw MarbleDrawingError(
                    "\(choice.describedEvent) at \(ReadableTime.describe(time(element))) is too many frames of \(ReadableTime.describe(frame)) from time zero to draw; draw with a longer frame"
                )
            case .frame(let found, let onIt):
                (index, exact) = (found, onIt)
            }
            guard exact else {
                throw MarbleDrawingError(
                    "\(choice.describedEvent) at \(ReadableTime.describe(time(element))) falls between frames \(index) and \(index + 1) of \(ReadableTime.describe(frame)); draw with a frame that divides every time"
                )
            }
            switch choice {
            case .symbol(let character, _):
                marks.append(.init(frame: index, symbol: character))
            case .placeholder(let description):
                marks.append(.init(frame: index, symbol: MarbleDrawing.placeholder, undrawable: description))
            }
        }
        return try MarbleDrawing(marks)
    }
}

/// How one event is drawn.
enum MarbleSymbolChoice {
    /// As `character`; `event` describes it for messages.
    case symbol(Character, event: String)
    /// As the placeholder; `description` says what it stands for.
    case placeholder(String)

    var describedEvent: String {
        switch self {
        case .symbol(_, let event): event
        case .placeholder(let description): "value \(description)"
        }
    }
}
