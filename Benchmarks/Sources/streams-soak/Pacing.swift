import Streams

/// How a checked subscriber asks for values.
enum Pacing: CustomStringConvertible {
    /// Asks for everything at once.
    case unlimited
    /// Asks for one value, then for one more with each value it receives: it always has demand.
    case oneAtATime
    /// Asks for this many values, then nothing more with the values it receives; the thread that
    /// attached it asks for this many more from time to time, from its own thread. A subject drops
    /// the values sent while it has no demand, so it misses some.
    case bursts(Int)
    /// Asks for everything, then cancels itself from inside `receive(_:)` after this many values.
    case cancelsItself(after: Int)

    /// Picks a pacing: mostly ones that always have demand, a fifth of them in bursts.
    static func random(using random: inout SoakRandom) -> Pacing {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: .unlimited
        case 4...5: .oneAtATime
        case 6...7: .bursts(Int.random(in: 1...8, using: &random))
        default: .cancelsItself(after: Int.random(in: 1...200, using: &random))
        }
    }

    /// Whether a subscriber paced so always has demand, and so misses nothing while attached.
    var keepsDemand: Bool {
        if case .bursts = self { false } else { true }
    }

    /// What the subscriber requests when it receives its subscription.
    var initialDemand: Subscribers.Demand {
        switch self {
        case .unlimited, .cancelsItself: .unlimited
        case .oneAtATime: .max(1)
        case .bursts(let size): .max(size)
        }
    }

    /// The pacing, for messages.
    var description: String {
        switch self {
        case .unlimited: "unlimited demand"
        case .oneAtATime: "one value at a time"
        case .bursts(let size): "bursts of \(size)"
        case .cancelsItself(let after): "cancels itself after \(after) values"
        }
    }
}
