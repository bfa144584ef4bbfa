import Streams

/// A schedule of an operator that flattens an outer publisher of inner publishers (`flatMap`,
/// `switchToLatest`): the outer publisher sends, from a thread of its own, the indices of the inner
/// publishers to use (through a closure that captures a token), each inner publisher sends from a
/// thread of its own, and a driver thread requests and perhaps cancels.
///
/// A case says how to build its operator and how to check what arrived; playing it is shared.
protocol FlatteningScheduleCase: CustomStringConvertible {
    /// The outer publisher's script.
    var outer: OuterScript { get }
    /// The inner publishers' scripts.
    var inners: [UpstreamScript] { get }
    /// The subscriber's demand.
    var demand: DemandPlan { get }
    /// When the subscriber cancels.
    var cancel: CancelPlan { get }
    /// What the leak probe calls the operator's subscription.
    var operatorName: String { get }
    /// What the leak probe calls the operator's closure, which holds the token.
    var closureName: String { get }

    /// The operator over `upstream`, whose values are indices: `inner` gives the publisher of an
    /// index, and the operator must keep it as its closure.
    func flatten(
        _ upstream: StressSource<Int, StressError>,
        inner: @escaping (Int) -> AnyPublisher<StressValue, StressError>
    ) -> AnyPublisher<StressValue, StressError>

    /// Checks what the subscriber received against the script.
    func check(
        _ report: StressSink<StressValue, StressError>.Report, _ watch: DeliveryWatch, _ sources: [ScheduleUpstream],
        _ upstream: StressSource<Int, StressError>, _ problems: inout ScheduleProblems)
}

extension FlatteningScheduleCase {
    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let upstream = StressSource<Int, StressError>()
            let sources = inners.map { ScheduleUpstream($0, kind: .waiting, name: "inner \($0.index)") }
            let release: @Sendable () -> Void = {
                upstream.close()
                sources.closeAll()
            }
            let watch = DeliveryWatch()
            let sink: StressSink<StressValue, StressError> = scheduleSink(
                demand, cancel, watch: watch, release: release)
            let publishers = sources.map { $0.publisher(watchedBy: probe) }
            let token = LifetimeToken()
            flatten(upstream) { [token] index in withExtendedLifetime(token) { publishers[index] } }
                .subscribe(sink, watch: watch, afterCompletion: release)
            probe.watch("outer", upstream)
            for source in sources { source.watch(probe) }
            probe.watch("subscriber", sink)
            probe.watch(operatorName, object: sink.subscriptionReference)
            probe.watch(closureName, object: token)

            let outer = self.outer
            var roles: [@Sendable () -> Bool] = sources.map { source in { source.play() } }
            roles.append { outer.play(upstream, inners: sources) }
            let steps = driverSteps(for: sink, demand, cancel, watch: watch, release: release)
            if !steps.isEmpty { roles.append(driverRole(steps)) }
            problems.add(playRoles(roles))

            problems.noteReceived(sink.report)

            check(sink.report, watch, sources, upstream, &problems)
            if sink.report.completions.isEmpty { sink.cancel() }
            release()
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }
}
