import Testing

/// Plays random timed cases through Streams and through ``TimedReference``, and records an issue for
/// every case whose events differ, or whose chain is not freed when it should be: once the subscribers
/// have cancelled and the scheduler has run out, unless the reference keeps a subscriber attached to
/// a subject, and in every case once the subjects have finished.
///
/// The cases come from ``ModelRun`` (`STREAMS_MODEL_SEED`, `STREAMS_MODEL_CASE`,
/// `STREAMS_MODEL_CASES`); each failure says how to replay it with `suite`'s filter.
func checkTimedCases(
    suite: String, defaultSeed: UInt64, defaultCount: Int, stream: Int,
    reportedFailureLimit: Int = 5, sourceLocation: SourceLocation = #_sourceLocation,
    make: (inout SeededRandom) -> TimedCase
) {
    let seed = ModelRun.seed(default: defaultSeed)
    var failures = 0
    for index in ModelRun.cases(default: defaultCount) {
        var random = SeededRandom(seed: seed, stream: stream << 32 | index)
        let timedCase = make(&random)
        let (expected, subjectsHoldTheChain) = TimedReference.playInFull(timedCase)
        let outcome = TimedChainRunner.run(timedCase)
        let replay = "STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter \(suite)"
        let freed = outcome.released && (outcome.releasedBeforeSubjectsFinished || subjectsHoldTheChain)
        #expect(
            outcome.events == expected,
            """
            Case \(index) differs from the model. Replay with \(replay)
            \(timedCase)
            expected: \(expected.map(\.description).joined(separator: " "))
            actual:   \(outcome.events.map(\.description).joined(separator: " "))
            """, sourceLocation: sourceLocation)
        #expect(
            freed,
            """
            Case \(index) was not freed after it ended \
            (\(outcome.released ? "only once the subjects finished" : "even once the subjects finished")). \
            Replay with \(replay)
            \(timedCase)
            """, sourceLocation: sourceLocation)
        if outcome.events != expected || !freed {
            failures += 1
            if failures == reportedFailureLimit { break }
        }
    }
}
