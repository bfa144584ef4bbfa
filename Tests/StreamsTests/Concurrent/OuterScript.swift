import Streams

/// What the outer publisher of `switchToLatest()` or `flatMap` does, on a thread of its own: it
/// sends the indices of the inner publishers, in order, waiting before each next one until the inner
/// publisher before it has sent `waitFor` of its values, then ends as `ending` says.
struct OuterScript: Sendable, CustomStringConvertible {
    var count: Int
    var waitFor: [Int]
    var ending: ScriptEnding

    /// The error the outer publisher fails with.
    static let failure = StressError(code: 100)

    /// The completion it sends, if any.
    var completion: Subscribers.Completion<StressError>? {
        switch ending {
        case .open: nil
        case .finish: .finished
        case .fail: .failure(Self.failure)
        }
    }

    var description: String {
        "outer: \(count) inner publishers, switching after \(waitFor) values, then \(ending.rawValue)"
    }

    /// A script for the indices of `inners`, waiting for some of each one's values, or none.
    static func random(
        inners: [UpstreamScript], endings: [(weight: Int, element: ScriptEnding)], using random: inout SeededRandom
    ) -> OuterScript {
        let waitFor = inners.map { random.chance(30) ? 0 : random.int(in: 0...$0.count) }
        return OuterScript(count: inners.count, waitFor: waitFor, ending: random.pick(weighted: endings))
    }

    /// Plays the script through `outer` on the calling thread. Returns false if something waited
    /// until the deadline; stops early, returning true, once `outer` has been let go of.
    func play(_ outer: StressSource<Int, StressError>, inners: [ScheduleUpstream]) -> Bool {
        for index in 0..<count {
            switch outer.send(index) {
            case .sent: break
            case .ended: return true
            case .timedOut: return false
            }
            guard inners[index].waitUntilSent(waitFor[index]) else { return false }
        }
        if let completion { outer.finish(completion) }
        return true
    }
}
