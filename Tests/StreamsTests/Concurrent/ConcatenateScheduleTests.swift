import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `append(_:)` and `prepend(_:)` of a publisher, with the prefix and the suffix each sending from
    /// a thread of its own (the suffix's sender waits until it is subscribed to, once the prefix
    /// finished, or sends into a subject meanwhile), and a driver thread requesting and perhaps
    /// cancelling.
    ///
    /// Checked on every run: the delivery rules; no value twice or made up; every value of the
    /// prefix before any of the suffix; from each, the first of its values in order (what a subject
    /// dropped for want of demand aside); the completion, if any, is the prefix's failure or the
    /// suffix's completion; each source cancelled at most once; everything freed. Exactly, when
    /// nothing cancels: every value of the prefix; then, if it finished, every value of a waiting
    /// suffix (the last ones of a subject, sent after it was subscribed to) and its completion, or,
    /// if it failed, its failure and nothing of the suffix.
    @Suite struct ConcatenateScheduleTests {
        static let cases = 400

        /// Plays random append and prepend schedules.
        @Test func randomSchedules() {
            playScheduleCases("ConcatenateScheduleTests", stream: 6, cases: Self.cases) { random in
                ConcatenateCase.random(using: &random).play()
            }
        }
    }
}

/// One append/prepend schedule: the prefix's and the suffix's scripts and kinds, which operator makes
/// the chain, and the subscriber's demand and cancel.
struct ConcatenateCase: CustomStringConvertible {
    var prefix: UpstreamScript
    var suffix: UpstreamScript
    var prefixKind: UpstreamKind
    var suffixKind: UpstreamKind
    var prepends: Bool
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        [
            prepends ? "suffix.prepend(prefix)" : "prefix.append(suffix)", "  \(demand)", "  \(cancel)",
            "  prefix (\(prefixKind.rawValue)): \(prefix)", "  suffix (\(suffixKind.rawValue)): \(suffix)",
        ]
        .joined(separator: "\n")
    }

    /// Enough demand for every value. A prefix that stays open never hands over, so its suffix is then
    /// a subject, whose sender does not wait for a subscriber.
    static func random(using random: inout SeededRandom) -> ConcatenateCase {
        let prefix = UpstreamScript.random(
            index: 0, maxCount: 40, endings: [(75, .finish), (15, .fail), (10, .open)], using: &random)
        let suffix = UpstreamScript.random(
            index: 1, maxCount: 40, endings: [(60, .finish), (15, .fail), (25, .open)], using: &random)
        let demand = DemandPlan.random(need: .values(prefix.count + suffix.count), using: &random)
        let cancel = CancelPlan.random(
            requests: demand.requests.count, expected: prefix.count + suffix.count, using: &random)
        return ConcatenateCase(
            prefix: prefix, suffix: suffix, prefixKind: random.chance(30) ? .subject : .waiting,
            suffixKind: prefix.ending == .open || random.chance(30) ? .subject : .waiting,
            prepends: random.chance(50), demand: demand, cancel: cancel)
    }

    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let first = ScheduleUpstream(prefix, kind: prefixKind, name: "prefix")
            let second = ScheduleUpstream(suffix, kind: suffixKind, name: "suffix")
            let upstreams = [first, second]
            let release: @Sendable () -> Void = { upstreams.closeAll() }
            let watch = DeliveryWatch()
            let sink: StressSink<StressValue, StressError> = scheduleSink(
                demand, cancel, watch: watch, release: release)
            let a = first.publisher(watchedBy: probe)
            let b = second.publisher(watchedBy: probe)
            (prepends ? b.prepend(a) : a.append(b)).subscribe(sink, watch: watch, afterCompletion: release)
            for upstream in upstreams { upstream.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch(prepends ? "prepend" : "append", object: sink.subscriptionReference)

            var roles: [@Sendable () -> Bool] = upstreams.map { upstream in { upstream.play() } }
            let steps = driverSteps(for: sink, demand, cancel, watch: watch, release: release)
            if !steps.isEmpty { roles.append(driverRole(steps)) }
            problems.add(playRoles(roles))

            problems.noteReceived(sink.report)

            check(sink.report, watch, upstreams, &problems)
            if sink.report.completions.isEmpty { sink.cancel() }
            upstreams.endAll()
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<StressValue, StressError>.Report, _ watch: DeliveryWatch, _ upstreams: [ScheduleUpstream],
        _ problems: inout ScheduleProblems
    ) {
        let values = report.values
        let cancelled = cancel.cancelled(afterReceiving: values.count)
        let lossy = !demand.unlimitedFromStart
        problems.checkDelivery(report, cancel, watch)

        let senders = values.map(\.sender)
        problems.expect(senders == senders.sorted(), "a value of the suffix came before one of the prefix: \(values)")
        problems.checkValues(values, from: upstreams) { upstream in
            let isPrefix = upstream === upstreams[0]
            if upstream.kind == .subject, lossy { return .subsequence }
            if cancelled { return isPrefix || upstream.kind == .waiting ? .prefix : .contiguous }
            if isPrefix { return .all }
            // The suffix is subscribed to once the prefix finished; a subject drops what came before.
            guard prefix.ending == .finish else { return .prefix }
            return upstream.kind == .waiting ? .all : .suffix
        }
        if prefix.ending != .finish {
            problems.expect(!senders.contains(1), "the suffix was relayed although the prefix did not finish")
        }

        let allowed: [Subscribers.Completion<StressError>] =
            switch prefix.ending {
            case .open: []
            case .fail: [.failure(prefix.failure)]
            case .finish: suffix.completion.map { [$0] } ?? []
            }
        problems.checkCompletion(report.completions, allowed: allowed, required: !cancelled && !allowed.isEmpty)
        problems.checkCancelledAtMostOnce(upstreams)
    }
}
