import Foundation
import Streams
import StreamsTesting
import Testing

/// Random chains of time operators (`debounce`, `throttle`, `delay`, `timeout`, `collect` by time,
/// `measureInterval`, `receive(on:)`, `subscribe(on:)`) mixed with synchronous ones, over a subject
/// the script sends into at random virtual times or over a timer, with random demand and cancelling,
/// checked against ``TimedReference`` on the test scheduler: the same events at the same times.
///
/// Seeded and replayed as the other model tests are (``ModelRun``): a failure prints the seed, the
/// case and the command that plays only it.
@Suite struct TimedOperatorModelTests {
    static let defaultSeed: UInt64 = 0x7153_D0DE_2026
    static let defaultCaseCount = 4_000

    @Test func timedChainsMatchTheModel() {
        checkTimedCases(
            suite: "TimedOperatorModelTests", defaultSeed: Self.defaultSeed, defaultCount: Self.defaultCaseCount,
            stream: 4
        ) { TimedCase.random(using: &$0) }
    }

    /// Fixed cases whose outcome follows from Combine's documented rules, worked out by hand: the
    /// reference and Streams both give them.
    @Test(arguments: knownCases)
    func referenceAndStreamsFollowTheDocumentedRules(_ known: KnownCase) {
        #expect(TimedReference.play(known.timedCase) == known.expected, "reference")
        #expect(TimedChainRunner.run(known.timedCase).events == known.expected, "Streams")
    }

    /// A case and what the subscriber sees, with times.
    struct KnownCase: Sendable, CustomTestStringConvertible {
        var name: String
        var timedCase: TimedCase
        var expected: [TimedEvent]

        var testDescription: String { name }
    }

    static let knownCases: [KnownCase] = {
        /// A case over the subject with an unlimited subscriber.
        func known(_ name: String, _ op: TimedOperator, _ steps: [(Int, TimedStep)], _ expected: [(Int, ChainEvent)])
            -> KnownCase
        {
            KnownCase(
                name: name,
                timedCase: TimedCase(
                    source: .subject, operators: [op],
                    subscriber: SubscriberScript(initialDemand: .unlimited, demandPerValue: [], cancelAtValue: nil),
                    steps: steps.map { ScriptedStep(time: $0.0, step: $0.1) }, horizon: 100),
                expected: [TimedEvent(time: 0, event: .subscription)]
                    + expected.map { TimedEvent(time: $0.0, event: $0.1) })
        }
        let encode = ChainClosures.encode
        return [
            // Each value waits for a quiet interval; one that a newer value replaces is never sent; the
            // completion goes out at once, dropping the value still waiting.
            known(
                "debounce", .debounce(3), [(1, .send(1)), (2, .send(2)), (6, .send(3)), (20, .send(4)), (21, .finish)],
                [(5, .value(2)), (9, .value(3)), (21, .finished)]),
            // The first value goes out at once; then one per interval, the first of those that came.
            known(
                "throttle first", .throttle(5, latest: false),
                [(1, .send(1)), (2, .send(2)), (3, .send(3)), (7, .send(4)), (12, .send(5)), (30, .finish)],
                [(1, .value(1)), (6, .value(2)), (11, .value(4)), (16, .value(5)), (30, .finished)]),
            // The same with the latest of those that came.
            known(
                "throttle latest", .throttle(5, latest: true),
                [(1, .send(1)), (2, .send(2)), (3, .send(3)), (7, .send(4)), (12, .send(5)), (30, .finish)],
                [(1, .value(1)), (6, .value(3)), (11, .value(4)), (16, .value(5)), (30, .finished)]),
            // Every event, the completion too, goes out the interval later.
            known(
                "delay", .delay(2), [(1, .send(1)), (3, .send(2)), (4, .fail)],
                [(3, .value(1)), (5, .value(2)), (6, .failure(.sent))]),
            // Each value restarts the timer; when it runs out, the publisher finishes.
            known(
                "timeout", .timeout(5, fails: false), [(2, .send(1)), (6, .send(2))],
                [(2, .value(1)), (6, .value(2)), (11, .finished)]),
            known("timeout failing", .timeout(5, fails: true), [(9, .send(1))], [(5, .failure(.timedOut))]),
            // What came in an interval goes out at its end; the completion sends the rest first.
            known(
                "collect by time", .collectByTime(4), [(1, .send(1)), (2, .send(2)), (5, .send(3)), (6, .finish)],
                [(4, .value(encode([1, 2]))), (6, .value(encode([3]))), (6, .finished)]),
            // A full array goes out at once.
            known(
                "collect by time or count", .collectByTimeOrCount(10, count: 2),
                [(1, .send(1)), (2, .send(2)), (3, .send(3)), (4, .finish)],
                [(2, .value(encode([1, 2]))), (4, .value(encode([3]))), (4, .finished)]),
            // The time since the subscription, then since the previous value.
            known(
                "measureInterval", .measureInterval, [(2, .send(7)), (5, .send(7))], [(2, .value(2)), (5, .value(3))]),
        ]
    }()
}
