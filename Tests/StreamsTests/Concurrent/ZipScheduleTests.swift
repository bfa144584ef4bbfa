import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `zip` of two, three and four upstreams (through its transforming overloads, whose closure
    /// captures a token), with each upstream sending from a thread of its own while a driver thread
    /// requests and may cancel.
    ///
    /// Checked on every run: the delivery rules, and that the tuples are the first of the index-wise
    /// tuples of the upstreams' values (the `k`th tuple holds each upstream's `k`th value); the
    /// completion, if any, is `.finished` only if an upstream with the fewest values finishes, or the
    /// failure of an upstream that fails; each source cancelled at most once; everything freed.
    /// Exactly, when nothing cancels or fails: every tuple up to the shortest upstream's length
    /// arrives, then `.finished` if an upstream of that length finishes, or nothing; and every tuple
    /// arrives before a `.finished`.
    @Suite struct ZipScheduleTests {
        static let cases = 400

        /// Plays random zip schedules of two to four upstreams.
        @Test func randomSchedules() {
            playScheduleCases("ZipScheduleTests", stream: 2, cases: Self.cases) { random in
                ZipCase.random(using: &random).play()
            }
        }
    }
}

/// One zip schedule: the upstreams' scripts and kinds, and the subscriber's demand and cancel.
struct ZipCase: CustomStringConvertible {
    var scripts: [UpstreamScript]
    var kinds: [UpstreamKind]
    var demand: DemandPlan
    var cancel: CancelPlan

    /// How many tuples the upstreams' values make.
    var tupleCount: Int { scripts.map(\.count).min() ?? 0 }

    /// Every tuple the upstreams' values make, in order.
    var tuples: [[StressValue]] {
        (0..<tupleCount).map { sequence in scripts.map { StressValue(sender: $0.index, sequence: sequence) } }
    }

    var description: String {
        let lines = zip(scripts, kinds).map { "  upstream \($0.index) (\($1.rawValue)): \($0)" }
        return (["Zip of \(scripts.count)", "  \(demand)", "  \(cancel)"] + lines).joined(separator: "\n")
    }

    /// Two to four upstreams; subjects only with unlimited demand (they would drop values otherwise,
    /// and the tuples could not be predicted); enough demand for every tuple. Unless the driver
    /// cancels, or demand becomes unlimited, an upstream with the fewest values ends, so that zip ends
    /// and lets the longer ones, waiting for demand, go.
    static func random(using random: inout SeededRandom) -> ZipCase {
        let arity = random.pick(weighted: [(50, 2), (30, 3), (20, 4)])
        var scripts = (0..<arity).map {
            UpstreamScript.random(
                index: $0, maxCount: 40, endings: [(60, .finish), (10, .fail), (30, .open)], using: &random)
        }
        let shortest = scripts.map(\.count).min() ?? 0
        let demand = DemandPlan.random(need: .values(shortest), using: &random)
        let kinds = scripts.map { _ in
            demand.unlimitedFromStart && random.chance(50) ? UpstreamKind.subject : .waiting
        }
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: shortest, using: &random)
        if !cancel.fromDriver, !demand.becomesUnlimited,
            !scripts.contains(where: { $0.count == shortest && $0.ending != .open }),
            let first = scripts.firstIndex(where: { $0.count == shortest })
        {
            scripts[first].ending = .finish
        }
        return ZipCase(scripts: scripts, kinds: kinds, demand: demand, cancel: cancel)
    }

    /// The zip of `publishers`, each tuple as an array; its closure holds `token`.
    func zipped(
        _ publishers: [AnyPublisher<StressValue, StressError>], token: LifetimeToken
    ) -> AnyPublisher<[StressValue], StressError> {
        let p = publishers
        switch p.count {
        case 2:
            return p[0].zip(p[1]) { [token] a, b in withExtendedLifetime(token) { [a, b] } }.eraseToAnyPublisher()
        case 3:
            return p[0].zip(p[1], p[2]) { [token] a, b, c in withExtendedLifetime(token) { [a, b, c] } }
                .eraseToAnyPublisher()
        default:
            return p[0].zip(p[1], p[2], p[3]) { [token] a, b, c, d in withExtendedLifetime(token) { [a, b, c, d] } }
                .eraseToAnyPublisher()
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
            let sink: StressSink<[StressValue], StressError> = scheduleSink(
                demand, cancel, watch: watch, release: release)
            let token = LifetimeToken()
            zipped(upstreams.map { $0.publisher(watchedBy: probe) }, token: token)
                .subscribe(sink, watch: watch, afterCompletion: release)
            for upstream in upstreams { upstream.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch("zip", object: sink.subscriptionReference)
            probe.watch("zip's closure", object: token)

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
        _ report: StressSink<[StressValue], StressError>.Report, _ watch: DeliveryWatch,
        _ upstreams: [ScheduleUpstream],
        _ problems: inout ScheduleProblems
    ) {
        let outputs = report.values
        let cancelled = cancel.cancelled(afterReceiving: outputs.count)
        let completion = report.completions.first
        let failing = scripts.filter { $0.ending == .fail }
        let shortest = tupleCount
        let shortestFinishes = scripts.contains { $0.count == shortest && $0.ending == .finish }
        let shortestEnds = scripts.contains { $0.count == shortest && $0.ending != .open }
        problems.checkDelivery(report, cancel, watch)

        let expected = tuples
        problems.expect(
            stressIsPrefix(outputs, of: expected),
            "the tuples are not the first index-wise tuples of the upstreams' values: \(outputs)")
        if completion == .finished || (!cancelled && failing.isEmpty) {
            problems.expect(outputs.count == expected.count, "\(outputs.count) of the \(expected.count) tuples arrived")
        }

        var allowed = failing.map { Subscribers.Completion<StressError>.failure($0.failure) }
        if shortestFinishes { allowed.append(.finished) }
        // A failing upstream reaches its failure once it has demand for all its values.
        let required = !cancelled && (shortestEnds || (!failing.isEmpty && demand.becomesUnlimited))
        problems.checkCompletion(report.completions, allowed: allowed, required: required)
        if !cancelled, failing.isEmpty {
            problems.expect(
                report.completions == (shortestFinishes ? [.finished] : []),
                "completions \(report.completions), expected \(shortestFinishes ? "finished" : "none")")
        }
        problems.checkCancelledAtMostOnce(upstreams)
    }
}
