import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `switchToLatest()` with the outer publisher sending the inner publishers from a thread of its
    /// own (through a `map` whose closure captures a token), each inner publisher sending from a
    /// thread of its own, and a driver thread requesting and perhaps cancelling.
    ///
    /// Checked on every run: the delivery rules; no value twice or made up; once a value of an inner
    /// publisher arrived, none of an earlier one; from each inner publisher, the first of its values
    /// in order; the completion, if any, is `.finished` only if the outer and the last inner
    /// publisher finish, or the failure of one that fails; each source cancelled at most once;
    /// everything freed. Exactly, when nothing cancels or fails: every value of the last inner
    /// publisher, then `.finished` if it and the outer publisher finish, or nothing.
    ///
    /// As documented in "Differences from Combine", and as in Combine, the current inner publisher's
    /// values still go down after the outer publisher fails: once it is cancelled, only a value
    /// already on its way can, so one delivery after that failure is allowed.
    @Suite struct SwitchToLatestScheduleTests {
        static let cases = 400

        /// Plays random switchToLatest schedules.
        @Test func randomSchedules() {
            playScheduleCases("SwitchToLatestScheduleTests", stream: 4, cases: Self.cases) { random in
                SwitchToLatestCase.random(using: &random).play()
            }
        }
    }
}

/// One switchToLatest schedule: the outer publisher's script, the inner publishers' scripts, and the
/// subscriber's demand and cancel.
struct SwitchToLatestCase: FlatteningScheduleCase {
    var outer: OuterScript
    var inners: [UpstreamScript]
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        let lines = inners.map { "  inner \($0.index) (waiting): \($0)" }
        return (["switchToLatest", "  \(outer)", "  \(demand)", "  \(cancel)"] + lines).joined(separator: "\n")
    }

    /// Up to three inner publishers, each a waiting source; enough demand for all their values.
    static func random(using random: inout SeededRandom) -> SwitchToLatestCase {
        let count = random.pick(weighted: [(5, 0), (25, 1), (35, 2), (35, 3)])
        let inners = (0..<count).map {
            UpstreamScript.random(
                index: $0, maxCount: 30, endings: [(70, .finish), (10, .fail), (20, .open)], using: &random)
        }
        let outer = OuterScript.random(
            inners: inners, endings: [(75, .finish), (10, .fail), (15, .open)], using: &random)
        let total = inners.reduce(0) { $0 + $1.count }
        let demand = DemandPlan.random(need: .values(total), using: &random)
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: total, using: &random)
        return SwitchToLatestCase(outer: outer, inners: inners, demand: demand, cancel: cancel)
    }

    var operatorName: String { "switchToLatest" }
    var closureName: String { "map's closure" }

    func flatten(
        _ upstream: StressSource<Int, StressError>,
        inner: @escaping (Int) -> AnyPublisher<StressValue, StressError>
    ) -> AnyPublisher<StressValue, StressError> {
        upstream.map(inner).switchToLatest().eraseToAnyPublisher()
    }

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<StressValue, StressError>.Report, _ watch: DeliveryWatch, _ sources: [ScheduleUpstream],
        _ upstream: StressSource<Int, StressError>, _ problems: inout ScheduleProblems
    ) {
        let values = report.values
        let cancelled = cancel.cancelled(afterReceiving: values.count)
        let completion = report.completions.first
        let last = inners.last
        let innerFailures = inners.filter { $0.ending == .fail }.map(\.failure)
        let failing = outer.ending == .fail || !innerFailures.isEmpty
        let lastFinishes = last.map { $0.ending == .finish } ?? true
        // One event already being handed over when a cancel returned may still arrive; a completion
        // that waited for the turn meanwhile is dropped.
        problems.checkDelivery(
            report, cancel, watch, lateInside: 1,
            maxAfterCompletion: completion == .failure(OuterScript.failure) ? 1 : 0)

        problems.expect(
            zip(values, values.dropFirst()).allSatisfy { $0.sender <= $1.sender },
            "a value of a replaced inner publisher arrived after its successor's: \(values)")
        problems.checkValues(values, from: sources) { source in
            // The last inner publisher is never replaced: all of it goes down unless the stream ends.
            let everything =
                !cancelled && (!failing || completion == .failure(source.script.failure))
                || completion == .finished
            return source.script.index == last?.index && everything ? .all : .prefix
        }

        var allowed = innerFailures.map { Subscribers.Completion<StressError>.failure($0) }
        if outer.ending == .fail { allowed.append(.failure(OuterScript.failure)) }
        if outer.ending == .finish, lastFinishes { allowed.append(.finished) }
        let required =
            !cancelled && (outer.ending == .fail || last?.ending == .fail || (outer.ending == .finish && lastFinishes))
        problems.checkCompletion(report.completions, allowed: allowed, required: required)
        if !cancelled, !failing {
            let owed: [Subscribers.Completion<StressError>] = outer.ending == .finish && lastFinishes ? [.finished] : []
            problems.expect(report.completions == owed, "completions \(report.completions), expected \(owed)")
        }
        problems.checkCancelledAtMostOnce(sources)
        problems.expect(upstream.cancelCount <= 1, "the outer publisher was cancelled \(upstream.cancelCount) times")
    }
}
