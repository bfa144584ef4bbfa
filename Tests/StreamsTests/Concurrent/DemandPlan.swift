import Streams

/// What a subscriber of a schedule asks for: `initial` from within `receive(subscription:)`,
/// `perValue` in answer to each value, and `requests`, in order, from the driver thread. It spins
/// `spin` steps inside each delivery, to widen the window for overlaps.
struct DemandPlan: Sendable, CustomStringConvertible {
    var initial: Subscribers.Demand
    var perValue: Subscribers.Demand
    var requests: [Subscribers.Demand]
    var spin: Int

    /// What the run needs of the plan, so that no sender waits for demand forever.
    enum Need {
        /// Nothing: the upstreams drop what nobody asked for, or the run does not depend on demand.
        case nothing
        /// Enough for this many values, once every request is made.
        case values(Int)
        /// Enough for this many values without the demand given in answer to values: the operator
        /// drops some, and those count against the demand.
        case valuesWithoutAnswers(Int)
        /// Unlimited demand, sooner or later.
        case unlimited
    }

    /// Whether the subscriber asks for everything from the start.
    var unlimitedFromStart: Bool { initial == .unlimited }

    /// Whether the subscriber asks for everything sooner or later (unless it cancels first).
    var becomesUnlimited: Bool { initial == .unlimited || requests.contains(.unlimited) }

    var description: String {
        "demand: initial \(initial), \(perValue) per value, requests \(requests), spin \(spin)"
    }

    /// A plan that meets `need`: a third of them unlimited from the start, the others a small
    /// initial demand, perhaps some with each value, and a few requests, one of which may lift the
    /// bound.
    static func random(need: Need, using random: inout SeededRandom) -> DemandPlan {
        let spin = random.pick([0, 20, 150, 400])
        var requests: [Subscribers.Demand] = []
        if random.chance(33) {
            // Requests on top of unlimited demand change nothing, but go through the operator.
            for _ in 0..<random.int(in: 0...2) { requests.append(.max(random.int(in: 1...3))) }
            return DemandPlan(initial: .unlimited, perValue: .none, requests: requests, spin: spin)
        }
        let initial = Subscribers.Demand.max(random.int(in: 0...3))
        let perValue = random.pick(weighted: [(50, Subscribers.Demand.none), (35, .max(1)), (15, .max(2))])
        for _ in 0..<random.int(in: 0...6) { requests.append(.max(random.int(in: 1...4))) }
        if random.chance(20) { requests.insert(.unlimited, at: random.int(in: 0...requests.count)) }
        var plan = DemandPlan(initial: initial, perValue: perValue, requests: requests, spin: spin)
        plan.meet(need)
        return plan
    }

    /// Adds a last request, if needed, so that the plan meets `need`.
    mutating func meet(_ need: Need) {
        switch need {
        case .nothing:
            return
        case .unlimited:
            if !becomesUnlimited { requests.append(.unlimited) }
        case .values(let count):
            guard !becomesUnlimited else { return }
            let granted = requests.reduce(initial, +).max ?? 0
            // A subscriber that asks for one more with each value never runs dry once it has any.
            if perValue > 0, granted > 0 { return }
            if granted < count { requests.append(.max(count - granted)) }
        case .valuesWithoutAnswers(let count):
            guard !becomesUnlimited else { return }
            let granted = requests.reduce(initial, +).max ?? 0
            if granted < count { requests.append(.max(count - granted)) }
        }
    }
}

/// How a subscriber of a schedule cancels, if it does.
enum CancelPlan: Sendable, CustomStringConvertible {
    /// It does not.
    case none
    /// From the driver thread, after making `afterRequests` of its requests and spinning `spin` steps.
    case fromDriver(afterRequests: Int, spin: Int)
    /// From inside the delivery of its `atValue`th value, on the delivering thread.
    case withinDelivery(atValue: Int)

    var description: String {
        switch self {
        case .none: "no cancel"
        case .fromDriver(let after, let spin): "cancel from the driver after \(after) requests and \(spin) steps"
        case .withinDelivery(let at): "cancel inside the delivery of value \(at)"
        }
    }

    /// Whether the plan never cancels.
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// Whether the driver thread cancels.
    var fromDriver: Bool {
        if case .fromDriver = self { return true }
        return false
    }

    /// Whether this plan cancelled a subscriber that received `received` values: always from the
    /// driver; from inside a delivery once that value arrived.
    func cancelled(afterReceiving received: Int) -> Bool {
        switch self {
        case .none: false
        case .fromDriver: true
        case .withinDelivery(let at): received >= at
        }
    }

    /// No cancel in most runs; otherwise from the driver, after some of `requests`, or, if at least
    /// one value is expected, from inside the delivery of one of the first `expected`.
    static func random(requests: Int, expected: Int, using random: inout SeededRandom) -> CancelPlan {
        switch random.int(in: 0...99) {
        case 0..<60:
            return .none
        case 60..<85:
            let after = random.int(in: 0...requests)
            let spin: Int =
                switch random.int(in: 0...9) {
                case 0..<4: 0
                case 4..<8: random.int(in: 1...3_000)
                default: random.int(in: 3_000...30_000)
                }
            return .fromDriver(afterRequests: after, spin: spin)
        default:
            guard expected > 0 else { return .none }
            return .withinDelivery(atValue: random.int(in: 1...expected))
        }
    }
}
