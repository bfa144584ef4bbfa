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

/// How a filter-like operator treats events that arrive out of order: one of the four ways Combine's
/// filter-like operators differ here, each followed by the operators that behave that way.
///
/// Each behaviour below is a property of the case, so once the producer is specialized each check
/// folds to a constant and the value path keeps only its own branch.
@usableFromInline
enum FilterConduct {
    /// Combine's `Encode` and `Decode`: a value or a completion that arrives before the subscription
    /// is handled as if it had come after it, and a cancel before the subscription does nothing.
    case coding
    /// Combine's shared filter machinery (`TryFilter`, `TryCompactMap`, `RemoveDuplicates`,
    /// `PrefixWhile` and their kin): any event before the subscription stops the program.
    case strict
    /// Combine's `DropWhile` and `TryDropWhile`: events outside the subscription are ignored, and a
    /// request for no elements stops the program.
    case dropWhile
    /// Combine's `Output`: values are counted and passed on whatever the state.
    case output

    /// A value, completion or request that arrives before the subscription stops the program.
    @inlinable
    var trapsBeforeSubscription: Bool { self == .strict }

    /// A completion that arrives before the subscription is passed on and ends the stream.
    @inlinable
    var completesBeforeSubscription: Bool { self == .coding }

    /// Values are processed whatever the state, not only while subscribed.
    @inlinable
    var processesValuesInAnyState: Bool { self == .output }

    /// Values that arrive before the subscription are processed as if it had arrived; after the
    /// stream ended they are dropped.
    @inlinable
    var processesValuesBeforeSubscription: Bool { self == .coding }

    /// `cancel()`, and ending the stream from within, do nothing until the subscription has arrived,
    /// so a subscription that arrives later is still accepted.
    @inlinable
    var endsOnlyWhenSubscribed: Bool { self == .dropWhile || self == .output }

    /// `cancel()` does nothing until the subscription has arrived (ending the stream from within may
    /// still end it), so a subscription that arrives later is still accepted.
    @inlinable
    var cancelsOnlyWhenSubscribed: Bool { endsOnlyWhenSubscribed || self == .coding }

    /// `request(.none)` stops the program.
    @inlinable
    var rejectsZeroDemand: Bool { self == .dropWhile }

    /// The mirror shows `downstream` and the logic's `reflectedState`; otherwise it has no children.
    @inlinable
    var reflectsState: Bool { self == .strict }

    /// The mirror shows `downstream`, whether the stream has `finished` and the
    /// `upstreamSubscription`.
    @inlinable
    var reflectsProgress: Bool { self == .coding }
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

    /// How the operator treats events that arrive out of order.
    static var conduct: FilterConduct { get }

    /// The logic's own children in the operator's mirror, after `downstream`.
    var reflectedState: [Mirror.Child] { get }
}

extension FilterLogic {
    @inlinable
    static var conduct: FilterConduct { .coding }

    @inlinable
    var reflectedState: [Mirror.Child] { [] }
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

    /// Whether the subscription has not arrived yet. Read under `lock`.
    @inlinable
    var isAwaitingSubscription: Bool {
        if case .awaitingSubscription = status { return true }
        return false
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
        let conduct = Logic.conduct
        if !conduct.processesValuesInAnyState && !isLive.value {
            guard conduct.processesValuesBeforeSubscription, lock.withLock({ isAwaitingSubscription }) else {
                return refuse()
            }
        }
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

    /// A value arrived while not subscribed: stops the program if it came before the subscription and
    /// the operator's conduct says so; otherwise the value is dropped.
    @usableFromInline
    func refuse() -> Subscribers.Demand {
        if Logic.conduct.trapsBeforeSubscription {
            let early = lock.withLock { isAwaitingSubscription }
            precondition(!early, "\(logic.description) received a value before receiving a subscription")
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
        let conduct = Logic.conduct
        let (live, early) = lock.withLock { () -> (Bool, Bool) in
            switch status {
            case .subscribed:
                status = .terminal
                return (true, false)
            case .awaitingSubscription:
                guard conduct.completesBeforeSubscription else { return (false, true) }
                status = .terminal
                return (true, true)
            case .terminal:
                return (false, false)
            }
        }
        if conduct.trapsBeforeSubscription {
            precondition(!early, "\(logic.description) received a completion before receiving a subscription")
        }
        guard live else { return }
        downstream.receive(completion: completion.mapFailure(logic.convert))
    }

    /// Ends the stream from within: cancels upstream. False if it had already ended, or, when the
    /// conduct says so, if the subscription has not arrived yet.
    @inlinable
    func terminate() -> Bool {
        let (ended, subscription) = lock.withLock { () -> (Bool, (any Subscription)?) in
            if status.isTerminal || Logic.conduct.endsOnlyWhenSubscribed && !status.isSubscribed { return (false, nil) }
            return (true, status.terminate())
        }
        subscription?.cancel()
        return ended
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let conduct = Logic.conduct
        if conduct.rejectsZeroDemand {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        }
        let (subscription, early) = lock.withLock { (status.subscription, isAwaitingSubscription) }
        if conduct.trapsBeforeSubscription {
            precondition(!early, "\(logic.description) received a request before sending its subscription")
        }
        subscription?.request(demand)
    }

    @inlinable
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            if Logic.conduct.cancelsOnlyWhenSubscribed && !status.isSubscribed { return nil }
            return status.terminate()
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { logic.description }

    @usableFromInline
    var customMirror: Mirror {
        if Logic.conduct.reflectsProgress {
            let (finished, subscription) = lock.withLock { (status.isTerminal, status.subscription) }
            return Mirror(
                self,
                children: [
                    ("downstream", downstream), ("finished", finished), ("upstreamSubscription", subscription as Any),
                ])
        }
        guard Logic.conduct.reflectsState else { return Mirror(self, children: EmptyCollection()) }
        // `logic` is read without a lock, as Combine does: a mirror is meant to be taken while no
        // value is being delivered.
        return Mirror(self, children: [("downstream", downstream)] + logic.reflectedState)
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
