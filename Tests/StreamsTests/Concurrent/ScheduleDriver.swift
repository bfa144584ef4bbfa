import Streams
import Testing

/// A step the driver thread takes.
typealias DriverStep = @Sendable () -> Void

/// A subscriber for a schedule, following `demand`, that cancels itself inside the delivery of a
/// value if `cancel` says so, tells `watch`, and then runs `release`, which lets the waiting senders
/// go.
func scheduleSink<Input: Sendable>(
    _ demand: DemandPlan, _ cancel: CancelPlan, watch: DeliveryWatch, release: @escaping @Sendable () -> Void
) -> StressSink<Input, StressError> {
    guard case .withinDelivery(let at) = cancel else {
        return StressSink(initialDemand: demand.initial, demandPerValue: demand.perValue, spin: demand.spin)
    }
    return StressSink(
        initialDemand: demand.initial, demandPerValue: demand.perValue, spin: demand.spin,
        onValue: { sink, _, received in
            if received == at {
                sink.cancel()
                watch.cancelReturned()
                release()
            }
        })
}

/// The steps the driver thread takes for `sink`: the requests of `demand`, in order, and the cancel
/// of `cancel`, if it comes from the driver, after which it tells `watch`, runs `release` and asks
/// for nothing more.
func driverSteps<Input: Sendable>(
    for sink: StressSink<Input, StressError>, _ demand: DemandPlan, _ cancel: CancelPlan, watch: DeliveryWatch,
    release: @escaping @Sendable () -> Void
) -> [DriverStep] {
    var steps: [DriverStep] = []
    for (index, request) in demand.requests.enumerated() {
        if case .fromDriver(let after, _) = cancel, after == index { break }
        steps.append { sink.request(request) }
    }
    if case .fromDriver(_, let spin) = cancel {
        steps.append {
            if spin > 0 { _ = stressSpin(spin) }
            sink.cancel()
            watch.cancelReturned()
            release()
        }
    }
    return steps
}

/// Merges lists of steps into one, keeping each list's order, picking at random which comes next.
func interleave(_ lists: [[DriverStep]], using random: inout SeededRandom) -> [DriverStep] {
    var remaining = lists.filter { !$0.isEmpty }.map { $0[...] }
    var merged: [DriverStep] = []
    while !remaining.isEmpty {
        let pick = random.int(in: 0...(remaining.count - 1))
        merged.append(remaining[pick].removeFirst())
        if remaining[pick].isEmpty { remaining.remove(at: pick) }
    }
    return merged
}

/// Runs `roles`, each on a thread of its own, released together, and returns what went wrong: a
/// role that returned false waited for demand, or for a subscriber, until the deadline (a value
/// lost, or demand never passed on), and a thread that never returned is recorded by
/// ``runOnThreads(_:sourceLocation:_:)`` itself. What the roles did happens before the return.
func playRoles(_ roles: [@Sendable () -> Bool]) -> [String] {
    let stuck = LockedState(0)
    let joined = runOnThreads(roles.count) { index in
        if !roles[index]() { stuck.withLock { $0 += 1 } }
    }
    var problems: [String] = []
    if !joined { problems.append("a thread did not return within \(stressTimeoutSeconds) seconds") }
    let stuckCount = stuck.withLock { $0 }
    if stuckCount > 0 { problems.append("\(stuckCount) thread(s) waited for demand until the deadline") }
    return problems
}

/// The role of a thread that takes `steps` in order.
func driverRole(_ steps: [DriverStep]) -> @Sendable () -> Bool {
    {
        for step in steps { step() }
        return true
    }
}
