@testable import StreamsTesting

/// The marble syntax written down a second time, from the rules `MarbleDiagram` documents, for the
/// fuzzers to check the parser against: what a diagram means, or the column of its first mistake.
///
/// The rules, as this reference reads them: columns count characters from 1, spaces included; every
/// character but a space takes one frame; `(…)` puts its events at the frame of the `(`, and groups
/// do not nest; `^` is allowed once, only in hot and subscription diagrams, and in a hot diagram
/// not inside a group; frames of a hot diagram count from its `^`; `!` only in a subscription
/// diagram, after its `^`; a subscription diagram shows nothing but `- ^ ! ( )` and spaces and must
/// have a `^`; no event may follow `|`, `#` or `!`; a character that is not a symbol must be a value.
enum MarbleReference {
    /// One event the reference reads: `symbol` is the character as written.
    struct Event: Equatable, CustomStringConvertible {
        var symbol: Character
        var frame: Int
        var column: Int

        /// `symbol@frame:column`.
        var description: String { "\(symbol)@\(frame):\(column)" }
    }

    /// The first mistake, by column, with a word saying which rule it breaks.
    struct Mistake: Error, Equatable, CustomStringConvertible {
        var column: Int
        var rule: String

        /// `column n (rule)`.
        var description: String { "column \(column) (\(rule))" }
    }

    /// The events of `source`, or its first mistake.
    static func read(
        _ source: String, kind: MarbleDiagram.Kind, isValue: (Character) -> Bool
    ) -> Result<[Event], Mistake> {
        // Each non-space character with its column and its place in time.
        let placed = source.enumerated().compactMap { offset, character -> (Character, column: Int)? in
            character == " " ? nil : (character, offset + 1)
        }
        var events: [Event] = []
        var openGroup: (frame: Int, column: Int)?
        var caret: (frame: Int, column: Int)?
        var ended = false
        for (frame, (character, column)) in placed.enumerated() {
            let at = openGroup?.frame ?? frame
            func mistake(_ rule: String) -> Result<[Event], Mistake> {
                .failure(Mistake(column: column, rule: rule))
            }
            if character == "-" { continue }
            if character == "(" {
                if openGroup != nil { return mistake("nested group") }
                openGroup = (frame, column)
                continue
            }
            if character == ")" {
                if openGroup == nil { return mistake("unopened group") }
                openGroup = nil
                continue
            }
            let isEvent: Bool
            switch (character, kind) {
            case ("^", .cold), ("^", .expected):
                return mistake("caret outside a hot or subscription diagram")
            case ("^", _) where caret != nil:
                return mistake("second caret")
            case ("^", .hot) where openGroup != nil:
                return mistake("caret in a group")
            case ("^", _):
                caret = (at, column)
                isEvent = kind == .subscription
            case ("!", .subscription):
                if caret == nil { return mistake("cancel before the caret") }
                isEvent = true
            case ("!", _):
                return mistake("cancel outside a subscription diagram")
            case (_, .subscription):
                return mistake("event in a subscription diagram")
            case ("|", _), ("#", _):
                isEvent = true
            default:
                if !isValue(character) { return mistake("not a value") }
                isEvent = true
            }
            guard isEvent else { continue }
            if ended { return mistake("event after the end") }
            ended = "|#!".contains(character)
            events.append(Event(symbol: character, frame: at, column: column))
        }
        if let openGroup { return .failure(Mistake(column: openGroup.column, rule: "unclosed group")) }
        if kind == .subscription, caret == nil { return .failure(Mistake(column: 1, rule: "no caret")) }
        if kind == .hot, let caret {
            events = events.map { Event(symbol: $0.symbol, frame: $0.frame - caret.frame, column: $0.column) }
        }
        return .success(events)
    }

    /// The parser's events in the reference's terms.
    static func events(of diagram: MarbleDiagram) -> [Event] {
        diagram.events.map { Event(symbol: $0.symbol.character, frame: $0.frame, column: $0.column) }
    }

    /// A diagram drawn from `events` by the drawing rules: `-` for each empty frame, a group for a
    /// frame with several events, nothing after the last event.
    static func draw(_ events: [(symbol: Character, frame: Int)]) -> String {
        var text = ""
        var next = 0
        var index = 0
        while index < events.count {
            let frame = events[index].frame
            let group = events[index...].prefix { $0.frame == frame }.map(\.symbol)
            text += String(repeating: "-", count: frame - next)
            text += group.count == 1 ? String(group) : "(" + String(group) + ")"
            next = frame + (group.count == 1 ? 1 : group.count + 2)
            index += group.count
        }
        return text
    }
}
