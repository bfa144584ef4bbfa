/// How an operator that may replace the upstream's completion with one last value ends the stream.
@usableFromInline
enum ReplacementEnding<Failure: Error> {
    /// Publish the replacement value, as soon as downstream has demand, then finish.
    case replace
    /// Pass this completion on.
    case complete(Subscribers.Completion<Failure>)
}

/// What an operator that may replace the upstream's completion asks its upstream for.
@usableFromInline
enum ReplacementUpstreamDemand {
    /// Downstream's requests, passed on as they come and counted: a value from the upstream with
    /// none outstanding stops the program (`replaceError(with:)`).
    case downstreams
    /// Everything, as soon as it subscribes, and downstream's requests on top; values pass through
    /// whatever downstream asked for (`replaceEmpty(with:)`).
    case unlimited
}

/// The per-operator part of an operator that passes values through and may replace the upstream's
/// completion with one last value: `replaceError(with:)` replaces a failure, `replaceEmpty(with:)` a
/// finish before any value.
@usableFromInline
protocol ReplacementLogic {
    /// The upstream's output, and the replacement's type.
    associatedtype Output
    /// The upstream's failure.
    associatedtype UpstreamFailure: Error
    /// The operator's failure.
    associatedtype Failure: Error

    /// What the operator asks its upstream for.
    static var upstreamDemand: ReplacementUpstreamDemand { get }

    /// Decides how the stream ends on the upstream's completion, given whether any value came first.
    static func ending(
        for completion: Subscribers.Completion<UpstreamFailure>, afterValues: Bool
    ) -> ReplacementEnding<Failure>

    /// The operator's name, as Combine prints it.
    static var name: String { get }
}

/// The subscriber and subscription of an operator that may replace the upstream's completion with one
/// last value.
///
/// It counts downstream's outstanding demand (or, when it asks the upstream for everything, only
/// whether downstream has asked), so that when the upstream completes it knows whether it may publish
/// the replacement at once; otherwise the replacement waits for the next request. As in Combine, a
/// value the upstream sends with no outstanding demand stops the program where the demand is passed
/// on, and a cancel before the upstream's subscription arrives does nothing.
@usableFromInline
final class ReplacementProducer<Downstream: Subscriber, Logic: ReplacementLogic>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
    @usableFromInline
    let downstream: Downstream

    /// The value published in place of a replaced completion.
    @usableFromInline
    let replacement: Logic.Output

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// Guarded by `lock`: downstream's outstanding demand.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: the upstream completed and the replacement waits for demand.
    @usableFromInline
    var replacementPending = false

    /// Whether the upstream has sent a value. Touched only by the upstream's calls, which never run
    /// concurrently.
    @usableFromInline
    var receivedValue = false

    @inlinable
    init(downstream: Downstream, replacement: Logic.Output) {
        self.downstream = downstream
        self.replacement = replacement
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard lock.withLock({ status.accept(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        if case .unlimited = Logic.upstreamDemand { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Logic.Output) -> Subscribers.Demand {
        let live = lock.withLock { () -> Bool in
            guard status.isSubscribed else { return false }
            guard case .downstreams = Logic.upstreamDemand else { return true }
            precondition(demand > 0, "\(Logic.name) received a value from its upstream with no outstanding demand")
            demand -= 1
            return true
        }
        guard live else { return .none }
        receivedValue = true
        let more = downstream.receive(input)
        if more > 0 { lock.withLock { demand += more } }
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
        switch Logic.ending(for: completion, afterValues: receivedValue) {
        case .complete(let completion):
            guard lock.withLock({ status.complete() }) else { return }
            downstream.receive(completion: completion)
        case .replace:
            let replaceNow = lock.withLock { () -> Bool in
                guard status.complete() else { return false }
                if demand > 0 { return true }
                replacementPending = true
                return false
            }
            if replaceNow { publishReplacement() }
        }
    }

    @inlinable
    func publishReplacement() {
        _ = downstream.receive(replacement)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let (subscription, replaceNow) = lock.withLock { () -> ((any Subscription)?, Bool) in
            if replacementPending {
                replacementPending = false
                return (nil, true)
            }
            guard let subscription = status.subscription else { return (nil, false) }
            self.demand += demand
            return (subscription, false)
        }
        if replaceNow {
            publishReplacement()
        } else {
            subscription?.request(demand)
        }
    }

    @inlinable
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            replacementPending = false
            guard status.isSubscribed else { return nil }
            return status.terminate()
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { Logic.name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
