/// What a reduce-like operator does after taking in one upstream value.
@usableFromInline
enum ReduceStep<Failure: Error> {
    /// Keep going.
    case `continue`
    /// The result is known: cancel upstream and publish it.
    case finish
    /// Cancel upstream and fail downstream with this error.
    case fail(Failure)
}

/// The per-operator part of a reduce-like operator: it folds every value into a state and publishes
/// one result when upstream finishes (or earlier, when the result is known).
///
/// `accumulate` is called only from `receive(_:)`, never concurrently; `result` is read once, after
/// the last `accumulate`.
@usableFromInline
protocol ReduceLogic {
    /// The upstream's output.
    associatedtype Input
    /// The upstream's failure.
    associatedtype UpstreamFailure: Error
    /// The result's type.
    associatedtype Output
    /// The operator's failure: the upstream's, or `any Error` for a throwing variant.
    associatedtype Failure: Error

    /// Folds one value in.
    mutating func accumulate(_ input: Input) -> ReduceStep<Failure>

    /// The value to publish at the end, or `nil` to finish without one.
    var result: Output? { get }

    /// Converts the upstream's failure into the operator's.
    func convert(_ failure: UpstreamFailure) -> Failure

    /// The operator's name, as Combine prints it.
    var description: String { get }

    /// The children of the operator's mirror, from what the producer can show without racing the
    /// fold: the result it shows, the result it started from, and its subscription status.
    static func mirrorChildren(downstream: Any, result: Output?, initial: Output?, status: Any) -> [Mirror.Child]
}

extension ReduceLogic {
    /// Combine's children for a reduce-like operator: `downstream`, `result`, `initial`, `status`.
    @inlinable
    static func mirrorChildren(downstream: Any, result: Output?, initial: Output?, status: Any) -> [Mirror.Child] {
        [("downstream", downstream), ("result", result as Any), ("initial", initial as Any), ("status", status)]
    }
}

extension ReduceLogic where UpstreamFailure == Failure {
    @inlinable
    func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

extension ReduceLogic where Failure == any Error {
    @inlinable
    func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The subscriber and subscription of a reduce-like operator.
///
/// It asks upstream for everything at once, folds values with its logic, and publishes the result
/// followed by `.finished` as soon as the result is known and downstream has asked for a value. A
/// failure goes downstream at once, with no result.
@usableFromInline
final class ReduceProducer<Downstream: Subscriber, Logic: ReduceLogic>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    /// Where the result stands.
    @usableFromInline
    enum Outcome {
        /// Still folding.
        case folding
        /// Known (`nil` for no value) but waiting for downstream demand: even the bare `.finished`
        /// waits, as in Combine.
        case waitingForDemand(Logic.Output?)
        /// Delivered, or never to be delivered.
        case done
    }

    @usableFromInline
    let downstream: Downstream

    /// Touched only by `receive(_:)` and, after the last value, by the completion path.
    @usableFromInline
    var logic: Logic

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription {
        didSet { isLive.set(status.isSubscribed) }
    }

    /// Whether `status` is `.subscribed`, readable without the lock on the value path.
    @usableFromInline
    let isLive = AtomicFlag()

    /// Guarded by `lock`.
    @usableFromInline
    var outcome = Outcome.folding

    /// Guarded by `lock`: whether downstream has asked for a value.
    @usableFromInline
    var hasDemand = false

    /// The result before any value was folded in, kept for the mirror.
    @usableFromInline
    let initial: Logic.Output?

    /// Guarded by `lock`: the result the mirror shows. It is `initial` until the result is known, then
    /// the result, so that reading the mirror never races the fold.
    @usableFromInline
    var shownResult: Logic.Output?

    @inlinable
    init(downstream: Downstream, logic: Logic) {
        self.downstream = downstream
        self.logic = logic
        initial = logic.result
        shownResult = initial
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard lock.withLock({ status.accept(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Logic.Input) -> Subscribers.Demand {
        guard isLive.value else { return .none }
        switch logic.accumulate(input) {
        case .continue:
            break
        case .finish:
            lock.withLock { status.terminate() }?.cancel()
            publishResult()
        case .fail(let error):
            let subscription = lock.withLock { () -> (any Subscription)? in
                outcome = .done
                return status.terminate()
            }
            guard let subscription else { break }
            subscription.cancel()
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
        let live = lock.withLock {
            guard status.isSubscribed else { return false }
            status = .terminal
            if case .failure = completion { outcome = .done }
            return true
        }
        guard live else { return }
        switch completion {
        case .finished:
            publishResult()
        case .failure(let error):
            downstream.receive(completion: .failure(logic.convert(error)))
        }
    }

    /// Publishes the result now if downstream asked for a value, or keeps it until it does.
    @inlinable
    func publishResult() {
        let result = logic.result
        let deliverNow = lock.withLock { () -> Bool in
            guard case .folding = outcome else { return false }
            shownResult = result
            if hasDemand {
                outcome = .done
                return true
            }
            outcome = .waitingForDemand(result)
            return false
        }
        if deliverNow { deliver(result) }
    }

    @inlinable
    func deliver(_ result: Logic.Output?) {
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let pending = lock.withLock { () -> Logic.Output?? in
            hasDemand = true
            guard case .waitingForDemand(let result) = outcome else { return nil }
            outcome = .done
            return .some(result)
        }
        if let result = pending { deliver(result) }
    }

    /// Cancels upstream and drops the result. Before upstream's subscription arrives, it does
    /// nothing, as in Combine: the subscription, when it comes, is still taken and asked for values.
    @inlinable
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            if case .awaitingSubscription = status { return nil }
            outcome = .done
            return status.terminate()
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { logic.description }

    @usableFromInline
    var customMirror: Mirror {
        let (result, status) = lock.withLock { (shownResult, self.status) }
        return Mirror(
            self,
            children: Logic.mirrorChildren(downstream: downstream, result: result, initial: initial, status: status))
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
