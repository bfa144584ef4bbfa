import Streams

/// What one of several subscribers of a schedule does: its demand and its cancel, and whether it
/// subscribes late, from the driver thread, while the senders send.
struct SubscriberPlan: Sendable, CustomStringConvertible {
    var demand: DemandPlan
    var cancel: CancelPlan
    var late: Bool

    var description: String { "\(late ? "late, " : "")\(demand), \(cancel)" }

    /// A plan that meets `need`, cancelling only if `mayCancel`.
    static func random(
        need: DemandPlan.Need, mayCancel: Bool, late: Bool, using random: inout SeededRandom
    ) -> SubscriberPlan {
        let demand = DemandPlan.random(need: need, using: &random)
        let cancel =
            mayCancel ? CancelPlan.random(requests: demand.requests.count, expected: 8, using: &random) : .none
        return SubscriberPlan(demand: demand, cancel: cancel, late: late)
    }
}

/// One of several subscribers of a schedule, as it runs: its sink, and what watches its events.
final class ScheduleSubscriber: Sendable {
    let name: String
    let plan: SubscriberPlan
    let watch = DeliveryWatch()
    let sink: StressSink<StressValue, StressError>

    /// Creates the subscriber `name`, following `plan`.
    init(name: String, plan: SubscriberPlan) {
        self.name = name
        self.plan = plan
        sink = scheduleSink(plan.demand, plan.cancel, watch: watch, release: {})
    }

    /// Subscribes the sink to `publisher`, through a ``ScheduleTap``, and names it and its
    /// subscription, unless it is already gone, to `probe`.
    func subscribe<P: Publisher>(to publisher: P, probe: StressLeakProbe)
    where P.Output == StressValue, P.Failure == StressError {
        publisher.subscribe(sink, watch: watch, afterCompletion: {})
        probe.watch(name, sink)
        probe.watchSubscription("\(name)'s subscription", sink.subscriptionReference)
    }

    /// The driver's steps for this subscriber: its requests and its cancel.
    var steps: [DriverStep] { driverSteps(for: sink, plan.demand, plan.cancel, watch: watch, release: {}) }

    /// Whether its plan cancelled it, given what it received.
    var cancelled: Bool { plan.cancel.cancelled(afterReceiving: sink.report.received) }

    /// Cancels it if it is still subscribed, once the run is over and checked.
    func end() {
        if sink.report.completions.isEmpty { sink.cancel() }
    }
}
