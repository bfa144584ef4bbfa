import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `combineLatest` of two, three and four upstreams (through its transforming overloads, whose
    /// closure captures a token), with each upstream sending from a thread of its own while a driver
    /// thread requests and may cancel.
    ///
    /// Checked on every run: the delivery rules; each output holds one value of each upstream, in
    /// its place; from one output to the next, no upstream's value goes back and one is newer (no
    /// output repeats); with unlimited demand, exactly one upstream's value changes from one output
    /// to the next, to the value that upstream sent next, and the first output holds some upstream's
    /// first value (a value from another thread, arriving while a tuple goes down, sends its own
    /// tuple afterwards); the completion, if any, is `.finished` only if every upstream finishes, or
    /// the failure of an upstream that fails; each source cancelled at most once; everything freed.
    /// Exactly, with unlimited demand and nothing cancelling or failing: the last output holds every
    /// upstream's last value (none, if an upstream sent nothing), then the completion owed.
    @Suite struct CombineLatestScheduleTests {
        static let cases = 400

        /// Plays random combineLatest schedules of two to four upstreams.
        @Test func randomSchedules() {
            playScheduleCases("CombineLatestScheduleTests", stream: 3, cases: Self.cases) { random in
                CombineLatestCase.random(using: &random).play()
            }
        }
    }
}

/// One combineLatest schedule: the upstreams' scripts and kinds, and the subscriber's demand and
/// cancel.
struct CombineLatestCase: CustomStringConvertible {
    var scripts: [UpstreamScript]
    var kinds: [UpstreamKind]
    var demand: DemandPlan
    var cancel: CancelPlan

    var description: String {
        let lines = zip(scripts, kinds).map { "  upstream \($0.index) (\($1.rawValue)): \($0)" }
        return (["CombineLatest of \(scripts.count)", "  \(demand)", "  \(cancel)"] + lines).joined(separator: "\n")
    }

    /// Two to four upstreams, half of them subjects. combineLatest asks every upstream for what
    /// downstream asks for and may use fewer of their values, so a waiting source could wait for
    /// demand for good: with one, demand becomes unlimited sooner or later.
    static func random(using random: inout SeededRandom) -> CombineLatestCase {
        let arity = random.pick(weighted: [(50, 2), (30, 3), (20, 4)])
        let scripts = (0..<arity).map {
            UpstreamScript.random(
                index: $0, maxCount: 30, endings: [(65, .finish), (10, .fail), (25, .open)], using: &random)
        }
        let kinds = scripts.map { _ in random.chance(50) ? UpstreamKind.subject : .waiting }
        let need: DemandPlan.Need = kinds.contains(.waiting) ? .unlimited : .nothing
        let demand = DemandPlan.random(need: need, using: &random)
        let cancel = CancelPlan.random(requests: demand.requests.count, expected: 10, using: &random)
        return CombineLatestCase(scripts: scripts, kinds: kinds, demand: demand, cancel: cancel)
    }

    /// The combineLatest of `publishers`, each output as an array; its closure holds `token`.
    func combined(
        _ publishers: [AnyPublisher<StressValue, StressError>], token: LifetimeToken
    ) -> AnyPublisher<[StressValue], StressError> {
        let p = publishers
        switch p.count {
        case 2:
            return p[0].combineLatest(p[1]) { [token] a, b in withExtendedLifetime(token) { [a, b] } }
                .eraseToAnyPublisher()
        case 3:
            return p[0].combineLatest(p[1], p[2]) { [token] a, b, c in withExtendedLifetime(token) { [a, b, c] } }
                .eraseToAnyPublisher()
        default:
            return p[0].combineLatest(p[1], p[2], p[3]) { [token] a, b, c, d in
                withExtendedLifetime(token) { [a, b, c, d] }
            }
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
            combined(upstreams.map { $0.publisher(watchedBy: probe) }, token: token)
                .subscribe(sink, watch: watch, afterCompletion: release)
            for upstream in upstreams { upstream.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch("combineLatest", object: sink.subscriptionReference)
            probe.watch("combineLatest's closure", object: token)

            var roles: [@Sendable () -> Bool] = upstreams.map { upstream in { upstream.play() } }
            let steps = driverSteps(for: sink, demand, cancel, watch: watch, release: release)
            if !steps.isEmpty { roles.append(driverRole(steps)) }
            problems.add(playRoles(roles))

            problems.noteReceived(sink.report)

            check(sink.report, watch, &problems)
            if sink.report.completions.isEmpty { sink.cancel() }
            upstreams.endAll()
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<[StressValue], StressError>.Report, _ watch: DeliveryWatch,
        _ problems: inout ScheduleProblems
    ) {
        let outputs = report.values
        let cancelled = cancel.cancelled(afterReceiving: outputs.count)
        let failing = scripts.filter { $0.ending == .fail }
        let allFinish = scripts.allSatisfy { $0.ending == .finish }
        problems.checkDelivery(report, cancel, watch)

        let shaped = outputs.allSatisfy { output in
            output.count == scripts.count
                && zip(output, scripts).allSatisfy { $0.sender == $1.index && (0..<$1.count).contains($0.sequence) }
        }
        problems.expect(shaped, "an output does not hold one sent value of each upstream in its place: \(outputs)")
        guard shaped else { return }
        for (previous, next) in zip(outputs, outputs.dropFirst()) {
            let steps = zip(previous, next).map { $1.sequence - $0.sequence }
            problems.expect(
                steps.allSatisfy { $0 >= 0 } && steps.contains { $0 > 0 },
                "output \(next) does not follow \(previous): a value went back, or none is newer")
            if demand.unlimitedFromStart {
                problems.expect(
                    steps.filter { $0 != 0 } == [1],
                    "with unlimited demand, output \(next) skips or merges values after \(previous)")
            }
        }
        if demand.unlimitedFromStart, let first = outputs.first {
            problems.expect(first.contains { $0.sequence == 0 }, "the first output \(first) holds no first value")
        }
        if demand.unlimitedFromStart, !cancelled, failing.isEmpty {
            let last =
                scripts.contains { $0.count == 0 }
                ? nil : scripts.map { StressValue(sender: $0.index, sequence: $0.count - 1) }
            problems.expect(
                outputs.last == last,
                "the last output is \(outputs.last.map { "\($0)" } ?? "none"), expected \(last.map { "\($0)" } ?? "none")"
            )
        }

        var allowed = failing.map { Subscribers.Completion<StressError>.failure($0.failure) }
        if allFinish { allowed.append(.finished) }
        problems.checkCompletion(
            report.completions, allowed: allowed, required: !cancelled && (allFinish || !failing.isEmpty))
    }
}
