import Streams
import Testing

/// Randomized concurrent schedules for the operators with several upstreams, and for the subjects.
///
/// Each test draws scripts from a seed: every upstream sends its values from a thread of its own, a
/// driver thread asks for more and may cancel, and once every thread has returned the run is checked
/// against what holds whatever the interleaving: no value lost or duplicated, each upstream's order
/// kept, demand never exceeded, nothing after the completion or after a cancel, at most one (and the
/// right) completion, and everything freed. The suites run one at a time: each case starts several
/// threads, and running suites side by side on a small machine only slows each down.
///
/// A failing case is reported with its seed, its number and the command that replays its script.
/// The interleaving is not replayed, only the script: repeat the command if a replay passes.
@Suite(.timeLimit(.minutes(3)), .serialized) struct ConcurrentScheduleTests {
    /// The seed the suites draw from when `STREAMS_MODEL_SEED` is not set.
    static let defaultSeed: UInt64 = 0xC0C0_2026_0326
    /// How many failing cases a test reports in full before it stops.
    static let reportedFailureLimit = 3
}

/// What one case of a schedule test came to: the script it played, described, and the invariants it
/// broke.
struct ScheduleOutcome {
    var script: String
    var problems: [String]
}

/// Plays the cases of one schedule test: case `index` draws its script from a generator of its own
/// (stream `stream` of the seed), so that it replays alone with `STREAMS_MODEL_CASE`. Each case that
/// broke an invariant is recorded, at the caller's line, with its seed, its number, the replay
/// command, its script and what it broke.
func playScheduleCases(
    _ suite: String, stream: Int, cases defaultCount: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ play: (inout SeededRandom) -> ScheduleOutcome
) {
    let seed = ModelRun.seed(default: ConcurrentScheduleTests.defaultSeed)
    var failures = 0
    for index in ModelRun.cases(default: defaultCount) {
        var random = SeededRandom(seed: seed, stream: stream << 32 | index)
        let outcome = play(&random)
        guard !outcome.problems.isEmpty else { continue }
        Issue.record(
            """
            \(suite): case \(index) of seed \(seed) broke an invariant. Replay with \
            STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter \(suite) \
            (the interleaving differs from run to run: repeat it if it passes).
            \(outcome.script)
            \(outcome.problems.map { "- \($0)" }.joined(separator: "\n"))
            """, sourceLocation: sourceLocation)
        failures += 1
        if failures == ConcurrentScheduleTests.reportedFailureLimit { break }
    }
}
