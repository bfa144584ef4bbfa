import Streams

/// How an upstream's script ends once its values are sent.
enum ScriptEnding: String, Sendable, Equatable {
    /// It stays open.
    case open
    /// It finishes.
    case finish
    /// It fails with its own error (see ``UpstreamScript/failure``).
    case fail
}

/// What one upstream of a schedule does, on a thread of its own: it sends `count` values, each tagged
/// with the upstream's index and its place among them, spinning `pace` steps before each, then ends
/// as `ending` says.
struct UpstreamScript: Sendable, CustomStringConvertible {
    var index: Int
    var count: Int
    var ending: ScriptEnding
    var pace: Int

    /// The values it sends, in order.
    var values: [StressValue] { (0..<count).map { StressValue(sender: index, sequence: $0) } }

    /// The error it fails with: its own, so that a test can tell which upstream's failure came down.
    var failure: StressError { StressError(code: index + 1) }

    /// The completion it sends, if any.
    var completion: Subscribers.Completion<StressError>? {
        switch ending {
        case .open: nil
        case .finish: .finished
        case .fail: .failure(failure)
        }
    }

    var description: String { "\(count) values, then \(ending.rawValue), pace \(pace)" }

    /// A script for upstream `index`: mostly a handful of values, sometimes none or up to
    /// `maxCount`; the ending drawn from `endings`, weighted.
    static func random(
        index: Int, maxCount: Int, endings: [(weight: Int, element: ScriptEnding)], using random: inout SeededRandom
    ) -> UpstreamScript {
        let count: Int =
            switch random.int(in: 0...99) {
            case 0..<10: random.int(in: 0...1)
            case 10..<70: random.int(in: 1...Swift.min(12, maxCount))
            default: random.int(in: 0...maxCount)
            }
        let pace: Int =
            switch random.int(in: 0...99) {
            case 0..<50: 0
            case 50..<85: random.int(in: 1...400)
            default: random.int(in: 400...4_000)
            }
        return UpstreamScript(index: index, count: count, ending: random.pick(weighted: endings), pace: pace)
    }
}
