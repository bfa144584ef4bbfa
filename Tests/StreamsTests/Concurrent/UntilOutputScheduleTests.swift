import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`, with the upstream sending from a
    /// thread of its own, the other publisher sending at most one value from another, and a driver
    /// thread requesting and perhaps cancelling.
    ///
    /// Checked on every run: the delivery rules; no value twice or made up; the completion, if any,
    /// one the script can cause; each source cancelled at most once; everything freed. For
    /// `prefix(untilOutputFrom:)`: the values are the first of upstream's (some of them, for a
    /// subject with bounded demand), and exactly all of them, then upstream's completion, when the
    /// other publisher sends nothing and nothing cancels. For `drop(untilOutputFrom:)`: the values
    /// are consecutive ones of upstream's, and exactly its last ones when nothing cancels; none if
    /// the other publisher sends nothing.
    @Suite struct UntilOutputScheduleTests {
        static let cases = 250

        /// Plays random `prefix(untilOutputFrom:)` schedules.
        @Test func prefixUntilOutputFrom() {
            playScheduleCases("UntilOutputScheduleTests", stream: 7, cases: Self.cases) { random in
                UntilOutputCase.random(dropping: false, using: &random).play()
            }
        }

        /// Plays random `drop(untilOutputFrom:)` schedules.
        @Test func dropUntilOutputFrom() {
            playScheduleCases("UntilOutputScheduleTests", stream: 8, cases: Self.cases) { random in
                UntilOutputCase.random(dropping: true, using: &random).play()
            }
        }
    }
}

/// One `prefix(untilOutputFrom:)` or `drop(untilOutputFrom:)` schedule: upstream's and the other
/// publisher's scripts and kinds, and the subscriber's demand and cancel.
struct UntilOutputCase: CustomStringConvertible {
    var dropping: Bool
    var upstream: UpstreamScript
    var other: UpstreamScript
    var upstreamKind: UpstreamKind
    var otherKind: UpstreamKind
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        [
            dropping ? "drop(untilOutputFrom:)" : "prefix(untilOutputFrom:)", "  \(demand)", "  \(cancel)",
            "  upstream (\(upstreamKind.rawValue)): \(upstream)", "  other (\(otherKind.rawValue)): \(other)",
        ]
        .joined(separator: "\n")
    }

    /// The other publisher sends one value most of the time, after spinning a while (its pace), and
    /// is asked for one: it never waits for more demand. Enough demand for all of upstream's values,
    /// counting, for `drop`, the ones it drops.
    static func random(dropping: Bool, using random: inout SeededRandom) -> UntilOutputCase {
        let upstream = UpstreamScript.random(
            index: 0, maxCount: 40, endings: [(60, .finish), (15, .fail), (25, .open)], using: &random)
        var other = UpstreamScript.random(
            index: 1, maxCount: 1, endings: [(40, .finish), (20, .fail), (40, .open)], using: &random)
        other.count = random.chance(70) ? 1 : 0
        other.pace = random.int(in: 0...(upstream.count * 300 + 1_000))
        let need: DemandPlan.Need = dropping ? .valuesWithoutAnswers(upstream.count) : .values(upstream.count)
        let demand = DemandPlan.random(need: need, using: &random)
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: upstream.count / 2, using: &random)
        return UntilOutputCase(
            dropping: dropping, upstream: upstream, other: other,
            upstreamKind: random.chance(30) ? .subject : .waiting, otherKind: random.chance(50) ? .subject : .waiting,
            demand: demand, cancel: cancel)
    }

    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let main = ScheduleUpstream(upstream, kind: upstreamKind, name: "upstream")
            let trigger = ScheduleUpstream(other, kind: otherKind, name: "other")
            let upstreams = [main, trigger]
            let release: @Sendable () -> Void = { upstreams.closeAll() }
            let watch = DeliveryWatch()
            let sink: StressSink<StressValue, StressError> = scheduleSink(
                demand, cancel, watch: watch, release: release)
            let a = main.publisher(watchedBy: probe)
            let b = trigger.publisher(watchedBy: probe)
            if dropping {
                a.drop(untilOutputFrom: b).subscribe(sink, watch: watch, afterCompletion: release)
            } else {
                a.prefix(untilOutputFrom: b).subscribe(sink, watch: watch, afterCompletion: release)
            }
            for upstream in upstreams { upstream.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch(dropping ? "drop" : "prefix", object: sink.subscriptionReference)

            var roles: [@Sendable () -> Bool] = upstreams.map { upstream in { upstream.play() } }
            let steps = driverSteps(for: sink, demand, cancel, watch: watch, release: release)
            if !steps.isEmpty { roles.append(driverRole(steps)) }
            problems.add(playRoles(roles))

            problems.noteReceived(sink.report)
            check(sink.report, watch, main, &problems)
            if sink.report.completions.isEmpty { sink.cancel() }
            upstreams.endAll()
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<StressValue, StressError>.Report, _ watch: DeliveryWatch, _ main: ScheduleUpstream,
        _ problems: inout ScheduleProblems
    ) {
        let values = report.values
        let cancelled = cancel.cancelled(afterReceiving: values.count)
        let lossy = upstreamKind == .subject && !demand.unlimitedFromStart
        let fires = other.count > 0
        // As in Combine, and as this operator's own tests record: when the other publisher completes
        // before its first value, its completion goes down, and so does upstream's if it was on its
        // way from another thread.
        let twoEnds = dropping && !fires && other.ending != .open && upstream.ending != .open
        // One event already being handed over when the cancel returned may still arrive; a completion
        // that waited for the turn meanwhile is dropped.
        problems.checkDelivery(
            report, cancel, watch, lateInside: 1, maxCompletions: twoEnds ? 2 : 1, maxAfterCompletion: twoEnds ? 1 : 0)

        var allowed = upstream.completion.map { [$0] } ?? []
        var required = !cancelled && upstream.ending != .open
        let relation: Delivered
        if dropping {
            // Until the other publisher sends a value, upstream's values are dropped; its completion
            // before one ends the stream.
            if !fires, let ending = other.completion {
                allowed.append(ending)
                required = !cancelled
            }
            if lossy {
                relation = .subsequence
            } else if !fires {
                relation = .prefix
                problems.expect(values.isEmpty, "values passed although the other publisher sent none")
            } else {
                relation = cancelled ? .contiguous : .suffix
            }
        } else {
            // The other publisher's value finishes the stream; its completion changes nothing.
            if fires {
                allowed.append(.finished)
                required = !cancelled
            }
            // Everything arrives unless the other publisher's value ends the stream first: a failure
            // of upstream that came down shows it did not.
            let upstreamFailed = upstream.ending == .fail && report.completions == [.failure(upstream.failure)]
            let everything = !cancelled && (!fires || upstreamFailed)
            relation = lossy ? .subsequence : everything ? .all : .prefix
        }
        problems.checkValues(values, from: [main]) { _ in relation }
        problems.checkCompletion(report.completions, allowed: allowed, required: required)
        problems.checkCancelledAtMostOnce([main])
    }
}
