/// What an operator that relays two publishers in turn does when the first one completes.
@usableFromInline
enum HandoverStep<Second, Failure: Error> {
    /// Subscribe to this publisher and relay it, asking it for the demand the first one left unmet.
    case switchTo(Second)
    /// End the stream with this completion.
    case complete(Subscribers.Completion<Failure>)
}

/// The per-operator part of an operator that relays a first publisher and, when it completes, maybe a
/// second one: `append`/`prepend` move on when the first finishes, `catch`/`tryCatch` when it fails.
///
/// The producer holds the logic until the first publisher completes or the stream is cancelled, then
/// releases it; `next(after:)` is called once, without the lock held, so it may run the caller's code.
@usableFromInline
protocol HandoverLogic {
    /// The failure of the publisher relayed first; its output is the second one's.
    associatedtype FirstFailure: Error
    /// The publisher that may follow it.
    associatedtype Second: Publisher
    /// The operator's failure.
    associatedtype Failure: Error

    /// Decides what follows the first publisher's completion.
    func next(after completion: Subscribers.Completion<FirstFailure>) -> HandoverStep<Second, Failure>

    /// Converts the second publisher's failure into the operator's.
    static func convert(_ failure: Second.Failure) -> Failure

    /// The operator's name, as Combine prints it.
    static var name: String { get }

    /// The children of the subscription's mirror, as Combine shows them.
    static func mirrorChildren(downstream: Any, demand: Subscribers.Demand) -> [Mirror.Child]

    /// Whether the operator follows Combine's `catch` rules rather than its `append`/`prepend` ones.
    ///
    /// With `catch` rules, every value either publisher sends goes downstream, even after
    /// cancellation, and a value from the first publisher that downstream did not ask for stops the
    /// program; a failure of the first publisher after it already failed stops the program too;
    /// cancelling before the first publisher's subscription arrives, or while the second one's is on
    /// its way, does nothing. Otherwise values nobody asked for, and anything arriving after the stream
    /// ended, are dropped, and cancelling always ends the stream.
    static var followsCatchRules: Bool { get }
}

extension HandoverLogic where Second.Failure == Failure {
    @inlinable
    static func convert(_ failure: Second.Failure) -> Failure { failure }
}

extension HandoverLogic where Failure == any Error {
    @inlinable
    static func convert(_ failure: Second.Failure) -> Failure { failure }
}

/// The subscription of an operator that relays a first publisher, then possibly a second one.
///
/// Downstream's outstanding demand is counted while the first publisher is live, so the second one is
/// asked for exactly the values still owed. It subscribes to both publishers through ``UpstreamSide``
/// subscribers that present themselves as the producer (its identity, description and mirror), as
/// Combine's do. It is generic over the logic rather than subclassed per operator, so every call on
/// the value path is static and specializes in the client.
@usableFromInline
final class HandoverProducer<Downstream: Subscriber, Logic: HandoverLogic>: Subscription,
    IndexedUpstreamOwner, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Second.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline
    static var upstreamPresentation: UpstreamSidePresentation { .owner }

    /// Where the stream stands.
    @usableFromInline
    enum State {
        /// Waiting for the first publisher's subscription.
        case awaitingFirst
        /// Relaying the first publisher.
        case first(any Subscription)
        /// The first publisher completed; the logic is deciding, or the second publisher's
        /// subscription is on its way.
        case handingOver
        /// Relaying the second publisher.
        case second(any Subscription)
        /// Completed or cancelled.
        case terminal

        /// The live subscription, of either publisher.
        @inlinable
        var subscription: (any Subscription)? {
            switch self {
            case .first(let subscription), .second(let subscription): subscription
            case .awaitingFirst, .handingOver, .terminal: nil
            }
        }
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once the first publisher completed or the stream was cancelled.
    @usableFromInline
    var logic: Logic?

    /// Guarded by `lock`.
    @usableFromInline
    var state = State.awaitingFirst

    /// Guarded by `lock`: downstream's outstanding demand while the first publisher is live.
    @usableFromInline
    var demand = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream, logic: Logic) {
        self.downstream = downstream
        self.logic = logic
    }

    /// The subscriber to attach to the first publisher.
    @inlinable
    var firstSide: UpstreamSide<FirstPublisherLane> { UpstreamSide(owner: self, lane: FirstPublisherLane()) }

    // MARK: First publisher

    @inlinable
    func firstReceive(subscription: any Subscription) {
        let accepted = lock.withLock {
            guard case .awaitingFirst = state else { return false }
            state = .first(subscription)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func firstReceive(_ input: Logic.Second.Output) -> Subscribers.Demand {
        if Logic.followsCatchRules {
            lock.withLock {
                precondition(
                    demand > 0, "\(Logic.name) received a value from its upstream with no outstanding demand")
                demand -= 1
            }
        } else {
            let live = lock.withLock { () -> Bool in
                guard case .first = state, demand > 0 else { return false }
                demand -= 1
                return true
            }
            guard live else { return .none }
        }
        let more = downstream.receive(input)
        if more > 0 { lock.withLock { demand += more } }
        return more
    }

    @inlinable
    func firstReceive(completion: Subscribers.Completion<Logic.FirstFailure>) {
        let logic = lock.withLock { () -> Logic? in
            switch state {
            case .first:
                state = .handingOver
                return self.logic.take()
            case .awaitingFirst, .handingOver, .second:
                if Logic.followsCatchRules, case .failure = completion {
                    preconditionFailure(
                        "\(Logic.name) received a failure from its upstream before its subscription"
                            + " or after an earlier failure")
                }
                return nil
            case .terminal:
                return nil
            }
        }
        guard let logic else { return }
        switch logic.next(after: completion) {
        case .switchTo(let second):
            second.subscribe(upstreamSide(()))
        case .complete(let completion):
            let live = lock.withLock { () -> Bool in
                guard case .handingOver = state else { return false }
                state = .terminal
                return true
            }
            if live { downstream.receive(completion: completion) }
        }
    }

    // MARK: Second publisher

    @inlinable
    func receive(subscription: any Subscription, upstream _: Void) {
        let owed = lock.withLock { () -> Subscribers.Demand? in
            guard case .handingOver = state else { return nil }
            state = .second(subscription)
            return demand
        }
        guard let owed else {
            subscription.cancel()
            return
        }
        if owed > 0 { subscription.request(owed) }
    }

    @inlinable
    func receive(_ input: Logic.Second.Output, upstream _: Void) -> Subscribers.Demand {
        if !Logic.followsCatchRules {
            let live = lock.withLock { () -> Bool in
                if case .second = state { return true }
                return false
            }
            guard live else { return .none }
        }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Logic.Second.Failure>, upstream _: Void) {
        let live = lock.withLock { () -> Bool in
            guard case .second = state else { return false }
            state = .terminal
            return true
        }
        guard live else { return }
        downstream.receive(completion: completion.mapFailure(Logic.convert))
    }

    // MARK: Subscription

    /// Combine passes a request for no values on rather than stopping the program.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { () -> (any Subscription)? in
            switch state {
            case .first(let subscription):
                self.demand += demand
                return subscription
            case .awaitingFirst, .handingOver:
                self.demand += demand
                return nil
            case .second(let subscription):
                return subscription
            case .terminal:
                return nil
            }
        }
        subscription?.request(demand)
    }

    @inlinable
    func cancel() {
        let (subscription, released) = lock.withLock { () -> ((any Subscription)?, Logic?) in
            switch state {
            case .first(let subscription), .second(let subscription):
                state = .terminal
                return (subscription, logic.take())
            case .awaitingFirst, .handingOver:
                if Logic.followsCatchRules { return (nil, nil) }
                state = .terminal
                return (nil, logic.take())
            case .terminal:
                return (nil, nil)
            }
        }
        withExtendedLifetime(released) {}
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { Logic.name }

    @usableFromInline
    var customMirror: Mirror {
        let demand = lock.withLock { self.demand }
        return Mirror(self, children: Logic.mirrorChildren(downstream: downstream, demand: demand))
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// The lane of the first publisher; the second one's is indexed by `()`.
    @usableFromInline
    struct FirstPublisherLane: UpstreamLane {
        @inlinable
        init() {}

        @inlinable
        static var presentation: UpstreamSidePresentation { .owner }

        @inlinable
        func receive(subscription: any Subscription, owner: HandoverProducer) {
            owner.firstReceive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Logic.Second.Output, owner: HandoverProducer) -> Subscribers.Demand {
            owner.firstReceive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Logic.FirstFailure>, owner: HandoverProducer) {
            owner.firstReceive(completion: completion)
        }
    }
}
