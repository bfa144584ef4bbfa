import Testing

@testable import StreamsTesting

/// Random strings given to the marble parser that every marble API of StreamsTesting shares: each
/// either parses to the events ``MarbleReference`` reads, or throws a ``MarbleSyntaxError`` whose
/// message names the column of the first mistake. Diagrams that parse are drawn again and parse
/// back to the same events.
///
/// Seeded: a failure prints the seed and the case. To replay it, set `STREAMS_MODEL_SEED` to the
/// seed and `STREAMS_MODEL_CASE` to the case; `STREAMS_MODEL_CASES` changes how many cases a test
/// plays.
@Suite(.timeLimit(.minutes(1))) struct MarbleParserFuzzTests {
    static let defaultSeed: UInt64 = 0x4D41_5242_4C45
    static let defaultCaseCount = 3_000

    /// The parser and the reference agree on every diagram: the same events, or a mistake at the
    /// same column, with a message that quotes the diagram and names the column.
    @Test func parsesOrNamesTheColumnOfTheFirstMistake() {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        var outcomes = (parsed: 0, rejected: 0)
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: 1 << 32 | index)
            let kind = MarbleFuzzInput.kind(using: &random)
            let dictionaryValues = random.chance(50)
            let isValue: (Character) -> Bool = { dictionaryValues ? MarbleFuzzInput.valueKeys.contains($0) : true }
            let source = MarbleFuzzInput.diagram(for: kind, using: &random)

            let expected = MarbleReference.read(source, kind: kind, isValue: isValue)
            let actual: Result<[MarbleReference.Event], MarbleSyntaxError>
            do {
                actual = .success(MarbleReference.events(of: try MarbleDiagram(source, kind: kind, isValue: isValue)))
            } catch {
                actual = .failure(error)
            }

            let agrees: Bool
            switch (expected, actual) {
            case (.success(let events), .success(let parsed)):
                agrees = events == parsed
                outcomes.parsed += 1
            case (.failure(let mistake), .failure(let error)):
                agrees =
                    error.column == mistake.column && error.diagram == source
                    && error.description.hasPrefix("Malformed marble diagram \"\(source)\", column \(mistake.column): ")
                    && error.description.hasSuffix(".") && error.problem.count > 10
                outcomes.rejected += 1
            default:
                agrees = false
            }
            #expect(
                agrees,
                """
                Marble parser and reference disagree on case \(index) (\(kind), \
                \(dictionaryValues ? "values a b c 1 2" : "any value")). Replay with \
                STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter MarbleParserFuzzTests
                diagram:   \(source.debugDescription)
                reference: \(expected)
                parser:    \(actual)
                """)
            if !agrees {
                failures += 1
                if failures == 5 { break }
            }
        }
        // Both outcomes are common, so neither side of the check goes unexercised.
        if ModelRun.cases(default: Self.defaultCaseCount).count >= 100 {
            #expect(outcomes.parsed > 100 && outcomes.rejected > 100, "\(outcomes)")
        }
    }

    /// A diagram that parses, drawn again by the drawing that `marbles(…)` and failure messages use,
    /// gives the canonical diagram the reference draws, and that parses back to the same events at
    /// the same frames; drawing it once more changes nothing.
    @Test func drawingAParsedDiagramParsesBackToTheSameEvents() throws {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var roundTrips = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: 2 << 32 | index)
            let kind = MarbleFuzzInput.kind(using: &random)
            let source = MarbleFuzzInput.diagram(for: kind, using: &random)
            guard let diagram = try? MarbleDiagram(source, kind: kind),
                diagram.events.allSatisfy({ $0.frame >= 0 })
            else { continue }
            roundTrips += 1
            let events = diagram.events.map { (symbol: $0.symbol.character, frame: $0.frame) }
            let drawn = try MarbleDrawing(events.map { MarbleDrawing.Mark(frame: $0.frame, symbol: $0.symbol) }).diagram
            let redrawnKind: MarbleDiagram.Kind = kind == .subscription ? .subscription : .expected
            let reparsed = try MarbleDiagram(drawn, kind: redrawnKind)
            let replay = "Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index)"
            #expect(
                drawn == MarbleReference.draw(events),
                "case \(index): \(source.debugDescription) drawn as \(drawn.debugDescription). \(replay)")
            #expect(
                reparsed.events.map { (symbol: $0.symbol.character, frame: $0.frame) }.elementsEqual(events) {
                    $0.symbol == $1.symbol && $0.frame == $1.frame
                },
                "case \(index): \(source.debugDescription) drawn as \(drawn.debugDescription) parses to \(reparsed.events). \(replay)"
            )
            #expect(
                normalizedMarbles(drawn, kind: redrawnKind) == drawn,
                "case \(index): drawing \(drawn.debugDescription) again changes it. \(replay)")
        }
        if ModelRun.cases(default: Self.defaultCaseCount).count >= 100 {
            #expect(roundTrips > 100, "only \(roundTrips) diagrams parsed")
        }
    }

    /// A few diagrams pinned by hand, so that the reference's reading is itself checked.
    @Test func referenceReadsKnownDiagrams() {
        func read(_ source: String, _ kind: MarbleDiagram.Kind) -> String {
            switch MarbleReference.read(source, kind: kind, isValue: { $0 != "x" }) {
            case .success(let events): events.map(\.description).joined(separator: " ")
            case .failure(let mistake): mistake.description
            }
        }
        #expect(read("", .cold) == "")
        #expect(read("", .subscription) == "column 1 (no caret)")
        #expect(read("-a-(bc)d|", .cold) == "a@1:2 b@3:5 c@3:6 d@7:8 |@8:9")
        #expect(read("a -^- b|", .hot) == "a@-2:1 b@2:7 |@3:8")
        #expect(read("a|-^", .hot) == "a@-3:1 |@-2:2")
        #expect(read("a|b", .cold) == "column 3 (event after the end)")
        #expect(read("(a(b))", .cold) == "column 3 (nested group)")
        #expect(read("--(a", .expected) == "column 3 (unclosed group)")
        #expect(read("a-x", .cold) == "column 3 (not a value)")
        #expect(read("-^", .expected) == "column 2 (caret outside a hot or subscription diagram)")
        #expect(read("(^a)", .hot) == "column 2 (caret in a group)")
        #expect(read("^-^", .hot) == "column 3 (second caret)")
        #expect(read("-(^!)", .subscription) == "^@1:3 !@1:4")
        #expect(read("!^", .subscription) == "column 1 (cancel before the caret)")
        #expect(read("^a", .subscription) == "column 2 (event in a subscription diagram)")
        #expect(read("🙂e\u{301} )", .cold) == "column 4 (unopened group)")
    }
}
