import Foundation

/// What a seeded, randomized test plays, read from the environment, so every such suite is replayed
/// the same way.
///
/// - `STREAMS_MODEL_SEED` (decimal or `0x` hex) gives the seed; without it, the suite's own default.
/// - `STREAMS_MODEL_CASE` plays only that case.
/// - `STREAMS_MODEL_CASES` changes how many cases each test plays (the suite's default without it).
enum ModelRun {
    /// The seed every randomized suite draws from: `STREAMS_MODEL_SEED`, or `defaultSeed`.
    static func seed(default defaultSeed: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["STREAMS_MODEL_SEED"] else { return defaultSeed }
        let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else { preconditionFailure("STREAMS_MODEL_SEED is not a number: \(text)") }
        return parsed
    }

    /// How many cases a test plays: `STREAMS_MODEL_CASES`, or `defaultCount`.
    static func caseCount(default defaultCount: Int) -> Int {
        ProcessInfo.processInfo.environment["STREAMS_MODEL_CASES"].flatMap { Int($0) } ?? defaultCount
    }

    /// The cases to play: all `caseCount(default:)` of them, or the one `STREAMS_MODEL_CASE` names.
    static func cases(default defaultCount: Int) -> Range<Int> {
        guard let text = ProcessInfo.processInfo.environment["STREAMS_MODEL_CASE"] else {
            return 0..<caseCount(default: defaultCount)
        }
        guard let index = Int(text) else { preconditionFailure("STREAMS_MODEL_CASE is not a number: \(text)") }
        return index..<(index + 1)
    }
}
