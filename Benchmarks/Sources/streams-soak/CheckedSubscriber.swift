import Foundation
import Streams
import Synchronization

/// A subscriber that checks, value by value, that it is treated as Combine's contract says:
///
/// - it receives one subscription, then values, then at most one completion, and nothing after it;
/// - it receives one event at a time, never two at once on two threads;
/// - it receives no more values than it asked for (where the publisher honours demand);
/// - after `cancel()` has returned it receives at most one value, one that another thread was
///   already handing over (none after it cancelled itself from inside `receive(_:)`);
/// - its values pass its ``ValueCheck`` (order, nothing missing).
///
/// Failed checks go to the workload's ``WorkloadLedger``; so do its counts, and its deinitialization,
/// which tells whether the publisher let go of it.
final class CheckedSubscriber<Check: ValueCheck>: Subscriber, Participant,
    @unchecked Sendable  // `state` is guarded by `lock`
{
    typealias Input = Check.Input
    typealias Failure = Never

    /// Where the subscriber is in its life.
    private enum Phase {
        case awaitingSubscription
        case subscribed
        /// `cancel()` has been called and has not returned yet.
        case cancelling
        /// `cancel()` has returned; `byItself` if it was called from inside `receive(_:)`.
        case cancelled(byItself: Bool)
        case completed
    }

    /// Everything that changes, guarded by `lock`.
    private struct State {
        var check: Check
        var phase = Phase.awaitingSubscription
        var subscription: (any Subscription)?
        weak var subscriptionReference: AnyObject?
        var received = 0
        /// Values asked for and not yet received, when the demand is finite.
        var outstanding = 0
        var unlimited = false
        var lateValues = 0
        var completions = 0

        mutating func add(_ demand: Subscribers.Demand) {
            if let count = demand.max { outstanding += count } else { unlimited = true }
        }
    }

    /// What the subscriber is, for messages: the workload's name for it.
    let role: String
    /// How it asks for values.
    let pacing: Pacing
    private let enforcesDemand: Bool
    private let ledger: WorkloadLedger
    private let lock = NSLock()
    private var state: State
    /// Set while a `receive` call runs, to catch two at once.
    private let receiving = Atomic<Bool>(false)

    /// A subscriber named `role` (for messages) that checks its values with `check`.
    ///
    /// - Parameter enforcesDemand: Whether a value beyond what was asked for is a violation; false for
    ///   `objectWillChange`, which delivers every change whatever the demand.
    init(_ role: String, pacing: Pacing, check: Check, enforcesDemand: Bool = true, ledger: WorkloadLedger) {
        self.role = role
        self.pacing = pacing
        self.enforcesDemand = enforcesDemand
        self.ledger = ledger
        state = State(check: check)
        ledger.created.add(1, ordering: .relaxed)
        ledger.alive.add(1, ordering: .relaxed)
    }

    deinit {
        ledger.delivered.add(state.received, ordering: .relaxed)
        ledger.alive.subtract(1, ordering: .releasing)
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        let demand = pacing.initialDemand
        let first = lock.withLock { () -> Bool in
            guard case .awaitingSubscription = state.phase else { return false }
            state.phase = .subscribed
            state.subscription = subscription
            state.subscriptionReference = subscription as AnyObject
            state.add(demand)
            return true
        }
        guard first else {
            report("a second subscription")
            subscription.cancel()
            return
        }
        subscription.request(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        var problems: [String] = []
        var cancelling: (any Subscription)?
        let more = lock.withLock { () -> Subscribers.Demand in
            state.received += 1
            switch state.phase {
            case .awaitingSubscription:
                problems.append("a value before the subscription")
            case .completed:
                problems.append("a value after the completion")
            case .cancelled(let byItself):
                state.lateValues += 1
                ledger.lateAfterCancel.add(1, ordering: .relaxed)
                if byItself || state.lateValues > 1 {
                    problems.append("\(state.lateValues) values after cancel() returned")
                }
                return .none
            case .subscribed, .cancelling:
                break
            }
            if enforcesDemand, !state.unlimited {
                if state.outstanding == 0 {
                    problems.append("a value it had not asked for")
                } else {
                    state.outstanding -= 1
                }
            }
            if let problem = state.check.check(input) { problems.append(problem) }
            switch pacing {
            case .oneAtATime:
                state.outstanding += 1
                return .max(1)
            case .cancelsItself(let after):
                if state.received >= after, case .subscribed = state.phase {
                    state.phase = .cancelling
                    cancelling = state.subscription.take()
                }
                return .none
            case .unlimited, .bursts:
                return .none
            }
        }
        for problem in problems { report(problem) }
        if let cancelling {
            cancelling.cancel()
            lock.withLock { state.phase = .cancelled(byItself: true) }
            ledger.cancelled.add(1, ordering: .relaxed)
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        defer { leave() }
        let problem = lock.withLock { () -> String? in
            state.completions += 1
            if state.completions > 1 { return "completion number \(state.completions)" }
            switch state.phase {
            case .awaitingSubscription:
                return "a completion before the subscription"
            case .cancelled(let byItself):
                state.lateValues += 1
                return byItself || state.lateValues > 1 ? "a completion after cancel() returned" : nil
            case .completed:
                return "a completion after the completion"
            case .subscribed, .cancelling:
                state.phase = .completed
                state.subscription = nil
                return state.check.checkFinished()
            }
        }
        ledger.completed.add(1, ordering: .relaxed)
        if let problem { report(problem) }
    }

    // MARK: Participant

    func cancelFromOutside() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            guard case .subscribed = state.phase else { return nil }
            state.phase = .cancelling
            return state.subscription.take()
        }
        guard let subscription else { return }
        subscription.cancel()
        lock.withLock { state.phase = .cancelled(byItself: false) }
        ledger.cancelled.add(1, ordering: .relaxed)
    }

    func requestFromOutside() {
        guard case .bursts(let size) = pacing else { return }
        request(.max(size))
    }

    func openUpDemand() {
        if case .bursts = pacing { request(.unlimited) }
    }

    var hasEnded: Bool {
        lock.withLock {
            switch state.phase {
            case .cancelled, .completed: true
            case .awaitingSubscription, .subscribed, .cancelling: false
            }
        }
    }

    var subscriptionReference: AnyObject? {
        lock.withLock { state.subscriptionReference }
    }

    func checkEnded(expectingCompletion: Bool) {
        let problem = lock.withLock { () -> String? in
            switch state.phase {
            case .awaitingSubscription: "never received a subscription"
            case .subscribed, .cancelling: expectingCompletion ? "never received the completion" : nil
            case .cancelled, .completed: nil
            }
        }
        if let problem { report(problem) }
    }

    // MARK: Inspection

    /// Whether the subscriber received a completion.
    var isCompleted: Bool {
        lock.withLock {
            if case .completed = state.phase { true } else { false }
        }
    }

    /// How many values it received.
    var received: Int {
        lock.withLock { state.received }
    }

    /// Reads the value check's state.
    func inspect<Result>(_ body: (Check) -> Result) -> Result {
        lock.withLock { body(state.check) }
    }

    /// Records a violation by this subscriber.
    func report(_ problem: String) {
        ledger.violation("\(role) (\(pacing)): \(problem)")
    }

    // MARK: Private

    private func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { () -> (any Subscription)? in
            guard case .subscribed = state.phase, !state.unlimited else { return nil }
            state.add(demand)
            return state.subscription
        }
        subscription?.request(demand)
    }

    private func enter() {
        if receiving.exchange(true, ordering: .acquiring) { report("two events delivered at once") }
    }

    private func leave() {
        receiving.store(false, ordering: .releasing)
    }
}
