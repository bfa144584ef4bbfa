import Foundation
import Streams
import Testing

@testable import StreamsTesting

/// Random strings given to StreamsTesting's public marble APIs: the hot and cold test publishers,
/// `expect(_:marbles:)` and `expectSubscriptions(_:)`. A diagram that follows the rules plays (or
/// matches) exactly the events ``MarbleReference`` reads, and draws back as the canonical diagram;
/// one that breaks them fails the running test once, with a message that names the column of the
/// first mistake, and the test goes on. Nothing stops the program, nothing hangs.
///
/// Seeded: a failure prints the seed and the case. To replay it, set `STREAMS_MODEL_SEED` to the
/// seed and `STREAMS_MODEL_CASE` to the case; `STREAMS_MODEL_CASES` changes how many cases a test
/// plays.
@Suite(.timeLimit(.minutes(1))) struct MarblePublisherFuzzTests {
    static let defaultSeed: UInt64 = 0x4D41_5242_4C45_5042
    static let defaultCaseCount = 150

    /// The error `#` stands for.
    struct Failed: Error, Equatable {}

    /// The values of the dictionary-valued publishers: each key of ``MarbleFuzzInput/valueKeys``
    /// stands for its own uppercase string.
    static let values = Dictionary(uniqueKeysWithValues: MarbleFuzzInput.valueKeys.map { ($0, $0.uppercased()) })

    /// Cold publishers, of strings, of looked-up values and of numbers, and one that cannot fail:
    /// the recording from time zero is the reference's events, and a malformed diagram gives an
    /// empty script and one failure that names the column. For the publisher that cannot fail, a
    /// `#` is one failure naming its column, and the rest of the diagram plays.
    @Test func coldPublishersPlayTheDiagramOrNameTheColumn() {
        check(stream: 1) { random, source in
            let scheduler = DispatchQueue.test
            let variant = random.int(in: 0...3)
            let isValue: (Character) -> Bool =
                switch variant {
                case 0: { _ in true }
                case 2: { Int(String($0)) != nil }
                default: { Self.values[$0] != nil }
                }
            var recorded: [String] = []
            let issues = recordedIssues {
                recorded =
                    switch variant {
                    case 0: Self.play(scheduler.createColdPublisher(marbles: source, error: Failed()), on: scheduler)
                    case 1:
                        Self.play(
                            scheduler.createColdPublisher(marbles: source, values: Self.values, error: Failed()),
                            on: scheduler)
                    case 2:
                        Self.play(
                            scheduler.createColdPublisher(marbles: source, outputType: Int.self, error: Failed()),
                            on: scheduler)
                    default:
                        Self.play(scheduler.createColdPublisher(marbles: source, values: Self.values), on: scheduler)
                    }
            }
            let reference = MarbleReference.read(source, kind: .cold, isValue: isValue)
            return Self.judge(
                reference, issues: issues, source: source, recorded: recorded, poundFails: variant == 3,
                expected: { events in
                    events.compactMap { event in
                        if variant == 3 && event.symbol == "#" { return nil }
                        let shown = variant == 0 || variant == 2 ? nil : Self.values[event.symbol]
                        return "\(shown ?? String(event.symbol))@\(event.frame)"
                    }
                })
        }
    }

    /// Hot publishers recorded from time zero: values left of `^` are gone, a completion left of it
    /// comes at time zero, everything else at its frame from the `^`.
    @Test func hotPublishersPlayTheDiagramOrNameTheColumn() {
        check(stream: 2) { _, source in
            let scheduler = DispatchQueue.test
            var recorded: [String] = []
            let issues = recordedIssues {
                recorded = Self.play(scheduler.createHotPublisher(marbles: source, error: Failed()), on: scheduler)
            }
            let reference = MarbleReference.read(source, kind: .hot, isValue: { _ in true })
            return Self.judge(
                reference, issues: issues, source: source, recorded: recorded,
                expected: { events in
                    events.compactMap { event in
                        if event.symbol == "|" || event.symbol == "#" {
                            return "\(event.symbol)@\(max(event.frame, 0))"
                        }
                        return event.frame >= 0 ? "\(event.symbol)@\(event.frame)" : nil
                    }
                })
        }
    }

    /// `expect(_:marbles:)` with a random expected diagram: a well-formed one matches the cold
    /// publisher made from it, and the actual drawing is the reference's canonical one; a malformed
    /// one fails the test once, naming the column, before anything is subscribed.
    @Test func expectMatchesItsOwnDiagramOrNamesTheColumn() {
        check(stream: 3) { _, source in
            let reference = MarbleReference.read(source, kind: .expected, isValue: { _ in true })
            let scheduler = DispatchQueue.test
            var drawn = ""
            let issues = recordedIssues {
                if case .success = reference {
                    // A cold publisher of the same diagram, subscribed at time zero, plays it.
                    scheduler.expect(
                        scheduler.createColdPublisher(marbles: source, error: Failed()), marbles: source,
                        error: Failed())
                    let drawing = DispatchQueue.test
                    drawn = drawing.marbles(of: drawing.createColdPublisher(marbles: source, error: Failed()))
                } else {
                    scheduler.expect(Empty<String, Failed>(), marbles: source)
                }
            }
            return Self.judge(
                reference, issues: issues, source: source, recorded: [drawn],
                expected: { events in [MarbleReference.draw(events.map { ($0.symbol, $0.frame) })] })
        }
    }

    /// `expectSubscriptions(_:)` with a random expected diagram, against the subscription that a
    /// well-formed one describes: it matches, and the subscription draws back as the canonical
    /// diagram; a malformed one fails the test once, naming the column.
    @Test func subscriptionDiagramsMatchOrNameTheColumn() {
        check(stream: 4) { _, source in
            let reference = MarbleReference.read(source, kind: .subscription, isValue: { _ in true })
            let scheduler = DispatchQueue.test
            let publisher = scheduler.createColdPublisher(marbles: "-")
            var drawn: [String] = []
            let issues = recordedIssues {
                if case .success(let events) = reference {
                    // Subscribe at the `^` and cancel at the `!`, as the diagram says.
                    scheduler.advance(by: .seconds(events[0].frame))
                    let recorder = scheduler.record(publisher)
                    if events.count == 2 {
                        scheduler.advance(by: .seconds(events[1].frame - events[0].frame))
                        recorder.cancel()
                    }
                }
                publisher.expectSubscriptions([source])
                drawn = publisher.subscriptionMarbles()
            }
            return Self.judge(
                reference, issues: issues, source: source, recorded: drawn,
                expected: { events in [MarbleReference.draw(events.map { ($0.symbol, $0.frame) })] })
        }
    }

    // MARK: - Running cases

    /// Plays `defaultCaseCount` random diagrams through `body`, which returns `nil` when the case
    /// passes and the reason otherwise.
    private func check(
        stream: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout SeededRandom, String) -> String?
    ) {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: stream << 32 | index)
            let kind: MarbleDiagram.Kind = stream == 4 ? .subscription : stream == 2 ? .hot : .cold
            let source = MarbleFuzzInput.diagram(for: kind, using: &random)
            guard let problem = body(&random, source) else { continue }
            Issue.record(
                """
                Case \(index): \(problem)
                diagram: \(source.debugDescription)
                Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter MarblePublisherFuzzTests
                """, sourceLocation: sourceLocation)
            failures += 1
            if failures == 5 { break }
        }
    }

    /// Compares an outcome with the reference's reading: for a well-formed diagram, no failure (but
    /// one naming the column of a `#` when `poundFails`) and the recording `expected` gives; for a
    /// malformed one, a single failure that quotes the diagram and names the reference's column.
    private static func judge(
        _ reference: Result<[MarbleReference.Event], MarbleReference.Mistake>, issues: [String], source: String,
        recorded: [String], poundFails: Bool = false, expected: ([MarbleReference.Event]) -> [String]
    ) -> String? {
        switch reference {
        case .success(let events):
            let wanted = expected(events)
            let wantedIssues = events.filter { poundFails && $0.symbol == "#" }.map { event in
                "Malformed marble diagram \"\(source)\", column \(event.column): '#' but the publisher cannot fail; "
                    + "pass error: to say what it fails with."
            }
            guard issues == wantedIssues else { return "well-formed, but the failures were \(issues)" }
            return recorded == wanted ? nil : "recorded \(recorded), the reference reads \(wanted)"
        case .failure(let mistake):
            let prefix = "Malformed marble diagram \"\(source)\", column \(mistake.column): "
            guard issues.count == 1, issues[0].hasPrefix(prefix) else {
                return "malformed at \(mistake), but the failures were \(issues)"
            }
            return nil
        }
    }

    /// Records `publisher` from time zero until nothing is scheduled, as `value@frame`, `|@frame` and
    /// `#@frame`.
    static func play<P: Publisher>(_ publisher: P, on scheduler: TestSchedulerOf<DispatchQueue>) -> [String] {
        let recorder = scheduler.record(publisher)
        scheduler.run()
        return recorder.events.compactMap { event in
            let frame = event.time.magnitude / 1_000_000_000
            switch event.value {
            case .subscription: return frame == 0 ? nil : "subscribed@\(frame)"
            case .value(let value): return "\(value)@\(frame)"
            case .completion(.finished): return "|@\(frame)"
            case .completion(.failure): return "#@\(frame)"
            }
        }
    }
}
