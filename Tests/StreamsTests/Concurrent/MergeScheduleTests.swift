import Streams
import Testing

extension ConcurrentScheduleTests {
    /// The merging publishers (`Merge` to `Merge8`, made with the `merge(with:)` overloads, and
    /// `MergeMany`), with each upstream sending from a thread of its own while a driver thread
    /// requests and may cancel.
    ///
    /// Checked on every run: the delivery rules (nothing after a cancel from inside a delivery: see
    /// "Differences from Combine"), no value twice or made up, each upstream's values in the order sent and, from a waiting
    /// source, none skipped; the completion, if any, is `.finished` only when every upstream
    /// finishes, or the failure of an upstream that fails; each source cancelled at most once;
    /// everything freed. Exactly, when nothing cancels: every value of every waiting source (and of
    /// every subject, with unlimited demand) arrives, and the completion is the one owed; with unlimited
    /// demand, every value of the upstream whose failure came down arrived before it.
    @Suite struct MergeScheduleTests {
        static let cases = 400

        /// Plays random merge schedules of two to eight upstreams.
        @Test func randomSchedules() {
            playScheduleCases("MergeScheduleTests", stream: 1, cases: Self.cases) { random in
                MergeCase.random(using: &random).play()
            }
        }
    }
}

/// One merge schedule: the upstreams' scripts and kinds, whether it is built as a `MergeMany`, and
/// the subscriber's demand and cancel.
struct MergeCase: CustomStringConvertible {
    var scripts: [UpstreamScript]
    var kinds: [UpstreamKind]
    var many: Bool
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        let name = many ? "MergeMany of \(scripts.count)" : "Merge\(scripts.count == 2 ? "" : "\(scripts.count)")"
        let lines = zip(scripts, kinds).map { "  upstream \($0.index) (\($1.rawValue)): \($0)" }
        return ([name, "  \(demand)", "  \(cancel)"] + lines).joined(separator: "\n")
    }

    /// Two to four upstreams mostly, up to eight sometimes (with fewer values each); a third of them
    /// subjects; enough demand, once every request is made, for every value.
    static func random(using random: inout SeededRandom) -> MergeCase {
        let arity = random.pick(weighted: [(30, 2), (25, 3), (25, 4), (5, 5), (5, 6), (5, 7), (5, 8)])
        let maxCount = arity > 4 ? 12 : 50
        let scripts = (0..<arity).map {
            UpstreamScript.random(
                index: $0, maxCount: maxCount, endings: [(70, .finish), (8, .fail), (22, .open)], using: &random)
        }
        let kinds = scripts.map { _ in random.chance(30) ? UpstreamKind.subject : .waiting }
        let total = scripts.reduce(0) { $0 + $1.count }
        let demand = DemandPlan.random(need: .values(total), using: &random)
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: total, using: &random)
        return MergeCase(
            scripts: scripts, kinds: kinds, many: random.chance(arity == 2 ? 50 : 25), demand: demand,
            cancel: cancel)
    }

    /// The merging publisher of `publishers`.
    func merged(_ publishers: [AnyPublisher<StressValue, StressError>]) -> AnyPublisher<StressValue, StressError> {
        let p = publishers
        if many {
            // Two publishers of one type merge into a `MergeMany` through `merge(with:)`.
            return p.count == 2
                ? p[0].merge(with: p[1]).eraseToAnyPublisher() : Publishers.MergeMany(p).eraseToAnyPublisher()
        }
        switch p.count {
        case 2: return Publishers.Merge(p[0], p[1]).eraseToAnyPublisher()
        case 3: return p[0].merge(with: p[1], p[2]).eraseToAnyPublisher()
        case 4: return p[0].merge(with: p[1], p[2], p[3]).eraseToAnyPublisher()
        case 5: return p[0].merge(with: p[1], p[2], p[3], p[4]).eraseToAnyPublisher()
        case 6: return p[0].merge(with: p[1], p[2], p[3], p[4], p[5]).eraseToAnyPublisher()
        case 7: return p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6]).eraseToAnyPublisher()
        default: return p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7]).eraseToAnyPublisher()
        }
    }

    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let upstreams = zip(scripts, kinds).map { ScheduleUpstream($0, kind: $1) }
            let release: @Sendable () -> Void = { upstreams.closeAll() }
            let watch = DeliveryWatch()
            let sink: StressSink<StressValue, StressError> = scheduleSink(
                demand, cancel, watch: watch, release: release)
            merged(upstreams.map { $0.publisher(watchedBy: probe) }).subscribe(
                sink, watch: watch, afterCompletion: release)
            for upstream in upstreams { upstream.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch("merge", object: sink.subscriptionReference)

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
        let completion = report.completions.first
        let failing = scripts.filter { $0.ending == .fail }
        let allFinish = scripts.allSatisfy { $0.ending == .finish }
        problems.checkDelivery(report, cancel, watch)

        // Every value is owed when nothing ends the stream early, or when it finished.
        let everything = completion == .finished || (!cancelled && failing.isEmpty)
        problems.checkValues(values, from: upstreams) { upstream in
            if upstream.kind == .subject, !demand.unlimitedFromStart { return .subsequence }
            if everything { return .all }
            // A value sent before its upstream failed went down before the failure, demand permitting.
            if demand.unlimitedFromStart, completion == .failure(upstream.script.failure) { return .all }
            return .prefix
        }
        if case .failure(let error) = completion, let failed = upstreams.first(where: { $0.script.failure == error }),
            failed.kind == .waiting
        {
            // With bounded demand, only the value waiting for demand can be left behind.
            let received = values.filter { $0.sender == failed.script.index }.count
            problems.expect(
                received >= failed.script.count - 1,
                "\(failed.name) failed after \(failed.script.count) values, \(received) arrived")
        }

        var allowed = failing.map { Subscribers.Completion<StressError>.failure($0.failure) }
        if allFinish { allowed.append(.finished) }
        problems.checkCompletion(
            report.completions, allowed: allowed, required: !cancelled && (allFinish || !failing.isEmpty))
        problems.checkCancelledAtMostOnce(upstreams)
    }
}
