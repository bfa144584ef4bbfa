/// A parsed marble diagram: what happens at which frame, before any value is looked up.
///
/// The one parser behind every marble API of StreamsTesting. Its rules:
/// - Every character but a space is one frame. A space takes no time: use spaces to line diagrams
///   up in source.
/// - `-` is a frame where nothing happens.
/// - `|` is the completion, `#` the failure; no event may follow either (only `-`, the parentheses
///   of a group, and in a hot diagram `^`).
/// - `(` starts a group: every event up to `)` happens at the frame of the `(`. The group's
///   characters still take a frame each, so `(ab)c` puts `c` at frame 4, and a column of the source
///   is always a frame of time.
/// - `^` is time zero of a hot publisher: frames count from it, so events left of it fall on
///   negative frames. In a subscription diagram it is when the subscription began.
/// - `!` is a cancellation, in subscription diagrams only.
/// - Any other character is a value, if `isValue` accepts it.
///
/// A diagram that breaks a rule throws a ``MarbleSyntaxError`` that names the rule and the column.
struct MarbleDiagram: Equatable {
    /// What a diagram is for, which decides the symbols it may use.
    enum Kind {
        /// The script of a cold publisher: frames count from each subscription; no `^`.
        case cold
        /// The script of a hot publisher: an optional `^` marks time zero.
        case hot
        /// The expected output of a publisher under test: frames count from the scheduler's start;
        /// no `^`.
        case expected
        /// One subscription to a test publisher: one `^`, then at most one `!`.
        case subscription
    }

    /// One symbol of the diagram.
    enum Symbol: Equatable {
        case value(Character)
        case finished
        case failure
        case subscribed
        case cancelled
    }

    /// One event of the diagram, at its frame, with the column it was written in.
    struct Event: Equatable {
        var symbol: Symbol
        /// The frame since time zero: the first character, or `^` when there is one.
        var frame: Int
        /// The 1-based column of the source, spaces included, for error messages.
        var column: Int
    }

    /// The source, as written.
    let source: String

    /// The events in the order they were written, which is also the order of their frames.
    let events: [Event]

    /// Characters that are symbols, never values.
    static let symbols: Set<Character> = ["-", "|", "#", "(", ")", "^", "!", " "]

    /// Parses `source` as a diagram of `kind`; a character that is not a symbol is a value when
    /// `isValue` says so, and otherwise an error whose message ends with `unknownValueHint`.
    init(
        _ source: String, kind: Kind, unknownValueHint: String = "has no value",
        isValue: (Character) -> Bool = { _ in true }
    ) throws(MarbleSyntaxError) {
        self.source = source
        var events: [Event] = []
        var position = 0
        var groupStart: (position: Int, column: Int)?
        var zero: (position: Int, column: Int)?
        var ending: (symbol: Character, column: Int)?
        var column = 0

        func fail(_ problem: String) -> MarbleSyntaxError {
            MarbleSyntaxError(diagram: source, column: column, problem: problem)
        }

        for character in source {
            column += 1
            if character == " " { continue }
            defer { position += 1 }
            let frame = groupStart?.position ?? position
            let symbol: Symbol
            switch character {
            case "-":
                continue
            case "(":
                if let open = groupStart {
                    throw fail("'(' opens a group inside the group opened at column \(open.column); groups do not nest")
                }
                groupStart = (position, column)
                continue
            case ")":
                guard groupStart != nil else { throw fail("')' closes no group") }
                groupStart = nil
                continue
            case "^":
                switch kind {
                case .hot, .subscription: break
                case .cold:
                    throw fail(
                        "'^' marks time zero of a hot publisher; a cold publisher's diagram starts at its subscription")
                case .expected:
                    throw fail("'^' marks time zero of a hot publisher; an expected diagram starts at time zero")
                }
                if let first = zero {
                    throw fail("a second '^'; the diagram has one already, at column \(first.column)")
                }
                if kind == .hot, let open = groupStart {
                    throw fail("'^' inside the group opened at column \(open.column); time zero cannot be in a group")
                }
                zero = (frame, column)
                guard kind == .subscription else { continue }
                symbol = .subscribed
            case "!":
                guard kind == .subscription else {
                    throw fail("'!' marks a cancellation, which only a subscription diagram can show")
                }
                guard zero != nil else { throw fail("'!' before the subscription '^'") }
                symbol = .cancelled
            case "|", "#":
                guard kind != .subscription else {
                    throw fail("'\(character)' in a subscription diagram, which shows only - ^ ! ( ) and spaces")
                }
                symbol = character == "|" ? .finished : .failure
            default:
                guard kind != .subscription else {
                    throw fail("'\(character)' in a subscription diagram, which shows only - ^ ! ( ) and spaces")
                }
                guard isValue(character) else {
                    throw fail("'\(character)' is not a marble symbol and \(unknownValueHint)")
                }
                symbol = .value(character)
            }
            if let ending {
                throw fail(
                    "'\(character)' after the '\(ending.symbol)' at column \(ending.column); nothing can follow the end"
                )
            }
            if symbol == .cancelled {
                ending = ("!", column)
            } else if symbol == .finished || symbol == .failure {
                ending = (character, column)
            }
            events.append(Event(symbol: symbol, frame: frame, column: column))
        }
        if let open = groupStart {
            column = open.column
            throw fail("'(' opens a group that is never closed")
        }
        if kind == .subscription, zero == nil {
            column = 1
            throw fail("no '^'; a subscription diagram shows when the subscription began")
        }
        // A subscription diagram's `^` is when the subscription began, not time zero.
        if kind == .hot, let zero {
            events = events.map { event in
                var shifted = event
                shifted.frame -= zero.position
                return shifted
            }
        }
        self.events = events
    }
}

/// A marble diagram that breaks a rule of the syntax, with the column where it does.
struct MarbleSyntaxError: Error, Equatable, CustomStringConvertible {
    /// The diagram as written.
    var diagram: String
    /// The 1-based column of the problem, spaces included.
    var column: Int
    /// What is wrong, in a few words.
    var problem: String

    /// The message the program stops with, such as
    /// `Malformed marble diagram "--a--(b|", column 6: '(' opens a group that is never closed.`
    var description: String {
        "Malformed marble diagram \"\(diagram)\", column \(column): \(problem)."
    }
}

extension MarbleDiagram {
    /// Parses `source`, or records the syntax error's message as a failure of the running test at
    /// `caller` (the test's call that was given the diagram) and returns `nil`.
    static func parseOrReport(
        _ source: String, kind: Kind, unknownValueHint: String = "has no value",
        isValue: (Character) -> Bool = { _ in true }, at caller: CallSite
    ) -> MarbleDiagram? {
        do {
            return try MarbleDiagram(source, kind: kind, unknownValueHint: unknownValueHint, isValue: isValue)
        } catch {
            TestIssueReporter.report(error.description, at: caller)
            return nil
        }
    }
}
