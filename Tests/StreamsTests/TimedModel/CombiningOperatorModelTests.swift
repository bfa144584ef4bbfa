import Foundation
import Streams
import StreamsTesting
import Testing

/// Random cases of the combining operators (`merge` of two to eight upstreams and `MergeMany`,
/// `zip`, `combineLatest`, `append`, `prepend`, `catch`, `prefix(untilOutputFrom:)`,
/// `drop(untilOutputFrom:)`, `share()`, `multicast(subject:)` with a scripted `connect()`) over subjects
/// the script sends into at random virtual times, interleaved on one time line, maybe followed by
/// time or synchronous operators, with random demand and cancelling; a shared publisher also has
/// other subscribers of its own, subscribing at random times: checked against ``TimedReference`` on
/// the test scheduler, event for event and second for second, for every subscriber.
///
/// Seeded and replayed as the other model tests are (``ModelRun``).
@Suite struct CombiningOperatorModelTests {
    static let defaultSeed: UInt64 = 0xC0B1_D0DE_2026
    static let defaultCaseCount = 4_000
    /// How many mismatches the test reports in full before it stops.
    static let reportedFailureLimit = 5

    @Test func combiningCasesMatchTheModel() {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: 5 << 32 | index)
            let combiningCase = TimedCase.randomCombining(using: &random)
            let (expected, subjectsHoldTheChain) = TimedReference.playInFull(combiningCase)
            let outcome = TimedChainRunner.run(combiningCase)
            #expect(
                outcome.events == expected,
                """
                Combining case differs from the model: case \(index). Replay with \
                STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter CombiningOperatorModelTests
                \(combiningCase)
                expected: \(expected.map(\.description).joined(separator: " "))
                actual:   \(outcome.events.map(\.description).joined(separator: " "))
                """)
            #expect(
                outcome.released && (outcome.releasedBeforeSubjectsFinished || subjectsHoldTheChain),
                """
                Combining case was not freed after it ended (\(outcome.released ? "only once the subjects finished" : "even once the subjects finished")): case \(index). Replay with \
                STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter CombiningOperatorModelTests
                \(combiningCase)
                """)
            if outcome.events != expected || !outcome.released
                || !(outcome.releasedBeforeSubjectsFinished || subjectsHoldTheChain)
            {
                failures += 1
                if failures == Self.reportedFailureLimit { break }
            }
        }
    }
}
