import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `flatMap(maxPublishers:)` with the outer publisher sending from a thread of its own the
    /// indices of the publishers to make (by a closure that captures a token), each of those sending
    /// from a thread of its own, and a driver thread requesting and perhaps cancelling.
    ///
    /// Checked on every run: the delivery rules (nothing after the completion: see "Differences from
    /// Combine"); no value twice or made up; from each inner publisher, the first of its values in
    /// order; the completion, if any, is `.finished` only if the outer publisher and every inner
    /// one finish, or the failure of one that fails; each source cancelled at most once; everything
    /// freed. Exactly, when nothing cancels or fails: every value of every inner publisher, then
    /// `.finished` if they and the outer publisher finish, or nothing; with unlimited demand, every
    /// value of the inner publisher whose failure came down, before it.
    @Suite struct FlatMapScheduleTests {
        static let cases = 400

        /// Plays random flatMap schedules, with and without a bound on the publishers.
        @Test func randomSchedules() {
            playScheduleCases("FlatMapScheduleTests", stream: 5, cases: Self.cases) { random in
                FlatMapCase.random(using: &random).play()
            }
        }
    }
}

/// One flatMap schedule: the outer publisher's script, `maxPublishers`, the inner publishers'
/// scripts, and the subscriber's demand and cancel.
struct FlatMapCase: FlatteningScheduleCase {
    var outer: OuterScript
    var maxPublishers: Subscribers.Demand
    var inners: [UpstreamScript]
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        let lines = inners.map { "  inner \($0.index) (waiting): \($0)" }
        return (["flatMap(maxPublishers: \(maxPublishers))", "  \(outer)", "  \(demand)", "  \(cancel)"] + lines)
            .joined(separator: "\n")
    }

    /// Up to four inner publishers, each a waiting source; enough demand for all their values. With
    /// a bound on the publishers, none stays open: one that did would hold its place for good, and
    /// the outer publisher could wait for demand forever.
    static func random(using random: inout SeededRandom) -> FlatMapCase {
        let count = random.pick(weighted: [(5, 0), (20, 1), (25, 2), (25, 3), (25, 4)])
        let maxPublishers: Subscribers.Demand = random.chance(40) ? .unlimited : .max(random.int(in: 1...3))
        let endings: [(weight: Int, element: ScriptEnding)] =
            maxPublishers == .unlimited ? [(80, .finish), (8, .fail), (12, .open)] : [(90, .finish), (10, .fail)]
        let inners = (0..<count).map {
            UpstreamScript.random(index: $0, maxCount: 25, endings: endings, using: &random)
        }
        let outer = OuterScript.random(
            inners: inners, endings: [(80, .finish), (8, .fail), (12, .open)], using: &random)
        let total = inners.reduce(0) { $0 + $1.count }
        let demand = DemandPlan.random(need: .values(total), using: &random)
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: total, using: &random)
        return FlatMapCase(outer: outer, maxPublishers: maxPublishers, inners: inners, demand: demand, cancel: cancel)
    }

    var operatorName: String { "flatMap" }
    var closureName: String { "flatMap's closure" }

    func flatten(
        _ upstream: StressSource<Int, StressError>,
        inner: @escaping (Int) -> AnyPublisher<StressValue, StressError>
    ) -> AnyPublisher<StressValue, StressError> {
        upstream.flatMap(maxPublishers: maxPublishers, inner).eraseToAnyPublisher()
    }

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<StressValue, StressError>.Report, _ watch: DeliveryWatch, _ sources: [ScheduleUpstream],
        _ upstream: StressSource<Int, StressError>, _ problems: inout ScheduleProblems
    ) {
        let values = report.values
        let cancelled = cancel.cancelled(afterReceiving: values.count)
        let completion = report.completions.first
        let innerFailures = inners.filter { $0.ending == .fail }.map(\.failure)
        let failing = outer.ending == .fail || !innerFailures.isEmpty
        let allFinish = outer.ending == .finish && inners.allSatisfy { $0.ending == .finish }
        problems.checkDelivery(report, cancel, watch)

        problems.checkValues(values, from: sources) { source in
            if completion == .finished || (!cancelled && !failing) { return .all }
            if demand.unlimitedFromStart, completion == .failure(source.script.failure) { return .all }
            return .prefix
        }

        var allowed = innerFailures.map { Subscribers.Completion<StressError>.failure($0) }
        if outer.ending == .fail { allowed.append(.failure(OuterScript.failure)) }
        if allFinish { allowed.append(.finished) }
        problems.checkCompletion(report.completions, allowed: allowed, required: !cancelled && (failing || allFinish))
        if !cancelled, !failing {
            let owed: [Subscribers.Completion<StressError>] = allFinish ? [.finished] : []
            problems.expect(report.completions == owed, "completions \(report.completions), expected \(owed)")
        }
        problems.checkCancelledAtMostOnce(sources)
        problems.expect(upstream.cancelCount <= 1, "the outer publisher was cancelled \(upstream.cancelCount) times")
    }
}
