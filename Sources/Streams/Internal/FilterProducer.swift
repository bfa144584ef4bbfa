/// What a filter-like operator does with one upstream value.
@usableFromInline
enum FilterStep<Output, Failure: Error> {
    /// Send this value downstream.
    case send(Output)
    /// Drop the value and ask upstream for one more in its place.
    case skip
    /// Send this value, then finish: cancel upstream and complete downstream. The downstream's demand
    /// for the value is still returned upstream.
    case sendAndFinish(Output)
    /// Drop the value and finish.
    case finish
    /// Cancel upstream and fail downstream with this error.
    case fail(Failure)
}

/// The per-operator part of a filter-like operator: how it treats each value and how it names itself.
///
/// `process` is called only from `receive(_:)`, which a publisher never calls concurrently, so the
/// logic may keep state without a lock.
@usableFromInline
protocol FilterLogic {
    /// The upstream's output.
    associatedtype Input
    /// The upstream's failure.
    associatedtype UpstreamFailure: Error
    /// What the operator publishes.
    associatedtype Output
    /// The operator's failure: the upstream's, or `any Error` for a throwing variant.
    associatedtype Failure: Error

    /// Decides what to do with one value.
    mutating func process(_ input: Input) -> FilterStep<Output, Failure>

    /// Converts the upstream's failure into the operator's.
    func convert(_ failure: UpstreamFailure) -> Failure

    /// The operator's name, as Combine prints it.
    var description: String { get }
}

extension FilterLogic where UpstreamFailure == Failure {
    @inlinable
    func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

extension FilterLogic where Failure == any Error {
    @inlinable
    func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The subscriber and subscription of a filter-like operator: it sits between upstream and downstream,
/// passes demand up, and can end the stream early.
///
/// It is generic over the logic rather than subclassed per operator, so every call on the value path
/// is static and specializes in the client.
@usableFromInline
final class FilterProducer<Downstream: Subscriber, Logic: FilterLogic>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline
    typealias Input = Logic.Input

    @usableFromInline
    typealias Failure = Logic.UpstreamFailure

    @usableFromInline
    let downstream: Downstream

    /// Touched only by `receive(_:)`.
    @usableFromInline
    @exclusivity(unchecked)
    var logic: Logic

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription {
        didSet { isLive.set(status.isSubscribed) }
    }

    /// Whether `status` is `.subscribed`, readable without the lock on the value path.
    @usableFromInline
    let isLive = AtomicFlag()

    @inlinable
    init(downstream: Downstream, logic: Logic) {
        self.downstream = downstream
        self.logic = logic
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard lock.withLock({ status.accept(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Logic.Input) -> Subscribers.Demand {
        guard isLive.value else { return .none }
        switch logic.process(input) {
        case .send(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .sendAndFinish(let output):
            let demand = downstream.receive(output)
            guard terminate() else { return demand }
            downstream.receive(completion: .finished)
            return demand
        case .finish:
            guard terminate() else { return .none }
            downstream.receive(completion: .finished)
        case .fail(let error):
            guard terminate() else { return .none }
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
        let live = lock.withLock {
            guard !status.isTerminal else { return false }
            status = .terminal
            return true
        }
        guard live else { return }
        downstream.receive(completion: completion.mapFailure(logic.convert))
    }

    /// Ends the stream from within: cancels upstream. False if it had already ended.
    @inlinable
    func terminate() -> Bool {
        guard let subscription = lock.withLock({ status.terminate() }) else { return false }
        subscription.cancel()
        return true
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { status.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        _ = terminate()
    }

    @usableFromInline
    var description: String { logic.description }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["downstream": downstream])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
