import Streams

// The combining operators of the timed reference, each written from Combine's rules for it:
// - merge: hands its subscription downstream first, then subscribes to each upstream in order; asks
//   each upstream for one value at a time (everything once the demand is unlimited); a value that
//   comes without demand waits, one per upstream (a newer one replaces it), and goes out, in upstream
//   order, when demand comes; finishes when every upstream has finished and nothing waits; the first
//   failure cancels the others and goes out at once.
// - zip: hands its subscription downstream first; asks every upstream for what downstream asked;
//   queues each upstream's values and publishes the oldest of each as soon as every queue has one;
//   finishes as soon as a finished upstream's queue is empty.
// - combineLatest: subscribes to every upstream, then hands its subscription downstream; publishes
//   the latest of each once every upstream has sent, as demand allows (a value without demand only
//   updates the latest); finishes when every upstream has finished; fails at the first failure.
// - append, prepend, catch: the first publisher, then the second, which is subscribed only when the
//   first ends (finishes, for concatenation; fails, for catch), and is asked for what is still owed.
// - prefix(untilOutputFrom:), drop(untilOutputFrom:): the other publisher is asked for one value,
//   which ends the stream (prefix) or lets values through from then on (drop).

/// A stage with several upstreams: what each upstream side tells it.
protocol ReferenceIndexedOwner: AnyObject {
    func receive(subscription: any ReferenceSubscription, upstream index: Int)
    func receive(_ value: Int, upstream index: Int) -> ModelDemand
    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int)
}

/// The subscriber a stage with several upstreams gives its `index`-th upstream.
final class ReferenceSide: ReferenceSubscriber {
    private let owner: any ReferenceIndexedOwner
    private let index: Int

    init(owner: any ReferenceIndexedOwner, index: Int) {
        self.owner = owner
        self.index = index
    }

    func receive(subscription: any ReferenceSubscription) {
        owner.receive(subscription: subscription, upstream: index)
    }

    func receive(_ value: Int) -> ModelDemand {
        owner.receive(value, upstream: index)
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        owner.receive(completion: completion, upstream: index)
    }
}

/// `merge(with:)` (two to eight upstreams) and `MergeMany`.
final class ReferenceMerge: ReferenceIndexedOwner, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var subscriptions: [(any ReferenceSubscription)?]
    private var subscribed: [Bool]
    private var waiting: [Int?]
    private var finished: [Bool]
    private var demand = ModelDemand.none
    private var isTerminal = false
    private var delivering = false

    init(downstream: any ReferenceSubscriber, count: Int) {
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: count)
        subscribed = Array(repeating: false, count: count)
        waiting = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    func start(_ upstreams: [ReferencePublisher]) {
        downstream.receive(subscription: self)
        for (index, upstream) in upstreams.enumerated() { upstream(ReferenceSide(owner: self, index: index)) }
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        guard !isTerminal, !subscribed[index] else { return subscription.cancel() }
        subscribed[index] = true
        subscriptions[index] = subscription
        subscription.request(demand == .unlimited ? .unlimited : .max(1))
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard !isTerminal else { return .none }
        guard demand.isPositive else {
            waiting[index] = value
            return .none
        }
        let unlimited = demand == .unlimited
        demand.consumeOne()
        if delivering {
            demand += downstream.receive(value)
        } else {
            delivering = true
            demand += downstream.receive(value)
            if isTerminal || waiting.contains(where: { $0 != nil }) || !finished.contains(false) {
                drain()
            } else {
                delivering = false
            }
        }
        return unlimited ? .none : .max(1)
    }

    /// Delivers what waits while there is demand, then the completion if every upstream finished.
    private func drain() {
        while !isTerminal {
            if let index = waiting.firstIndex(where: { $0 != nil }) {
                guard demand.isPositive, let value = waiting[index] else { break }
                waiting[index] = nil
                demand.consumeOne()
                let source = demand == .unlimited ? nil : subscriptions[index]
                let more = downstream.receive(value)
                source?.request(.max(1))
                demand += more
            } else if !finished.contains(false) {
                isTerminal = true
                downstream.receive(completion: .finished)
                break
            } else {
                break
            }
        }
        delivering = false
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        guard !isTerminal else { return }
        switch completion {
        case .finished:
            guard !finished[index] else { return }
            finished[index] = true
            subscriptions[index] = nil
            guard !finished.contains(false), !delivering else { return }
            delivering = true
            drain()
        case .failure:
            isTerminal = true
            let others = subscriptions.enumerated().filter { $0.offset != index }.compactMap(\.element)
            subscriptions = []
            waiting = []
            for other in others { other.cancel() }
            downstream.receive(completion: completion)
        }
    }

    func request(_ more: ModelDemand) {
        guard more.isPositive, !isTerminal else { return }
        let wasUnlimited = demand == .unlimited
        demand += more
        let unleash = !wasUnlimited && demand == .unlimited ? subscriptions.compactMap { $0 } : []
        if !delivering {
            delivering = true
            drain()
        }
        for subscription in unleash { subscription.request(.unlimited) }
    }

    func cancel() {
        guard !isTerminal else { return }
        isTerminal = true
        let all = subscriptions.compactMap { $0 }
        subscriptions = []
        waiting = []
        for subscription in all { subscription.cancel() }
    }
}

/// `zip`, two to four upstreams.
final class ReferenceZip: ReferenceIndexedOwner, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var queues: [[Int]]
    private var finished: [Bool]
    private var subscribed: [Bool]
    private var subscriptions: [(any ReferenceSubscription)?]
    private var requested = ModelDemand.none
    private var isTerminal = false
    private var delivering = false
    /// The upstream whose value is being delivered: what downstream asks for meanwhile is owed to it,
    /// as the demand its `receive(_:)` returns.
    private var processing: Int?
    private var owed = ModelDemand.none

    init(downstream: any ReferenceSubscriber, count: Int) {
        self.downstream = downstream
        queues = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
        subscribed = Array(repeating: false, count: count)
        subscriptions = Array(repeating: nil, count: count)
    }

    func start(_ upstreams: [ReferencePublisher]) {
        downstream.receive(subscription: self)
        for (index, upstream) in upstreams.enumerated() { upstream(ReferenceSide(owner: self, index: index)) }
    }

    private var allFilled: Bool { !queues.contains(where: \.isEmpty) }
    private var exhausted: Bool { queues.indices.contains { finished[$0] && queues[$0].isEmpty } }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        guard !isTerminal, !subscribed[index] else { return subscription.cancel() }
        subscribed[index] = true
        subscriptions[index] = subscription
        if requested.isPositive { subscription.request(requested) }
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard !isTerminal, !finished[index] else { return .none }
        queues[index].append(value)
        guard allFilled, !delivering else { return .none }
        delivering = true
        processing = index
        let more = downstream.receive(takeTuple())
        if !more.isPositive, !isTerminal, !allFilled, !exhausted { return releaseTurn() }
        return drain(after: more)
    }

    private func takeTuple() -> Int {
        ChainClosures.encode(queues.indices.map { queues[$0].removeFirst() })
    }

    private func drain(after more: ModelDemand) -> ModelDemand {
        var more = more
        while true {
            let asked = more.isPositive ? record(more) : []
            if isTerminal {
                for subscription in asked { subscription.request(more) }
                return releaseTurn()
            }
            if allFilled {
                for subscription in asked { subscription.request(more) }
                more = downstream.receive(takeTuple())
                continue
            }
            if exhausted {
                let all = end()
                for subscription in asked { subscription.request(more) }
                for subscription in all { subscription.cancel() }
                downstream.receive(completion: .finished)
                _ = releaseTurn()
                return .none
            }
            for subscription in asked { subscription.request(more) }
            return releaseTurn()
        }
    }

    /// Adds downstream's demand; returns the upstreams to ask for it now (all but the one whose
    /// value is being delivered).
    private func record(_ more: ModelDemand) -> [any ReferenceSubscription] {
        guard !isTerminal else { return [] }
        requested += more
        if processing != nil { owed += more }
        return subscriptions.enumerated().filter { $0.offset != processing }.compactMap(\.element)
    }

    private func releaseTurn() -> ModelDemand {
        let owed = self.owed
        self.owed = .none
        processing = nil
        delivering = false
        return owed
    }

    private func end() -> [any ReferenceSubscription] {
        isTerminal = true
        let all = subscriptions.compactMap { $0 }
        subscriptions = []
        queues = queues.map { _ in [] }
        return all
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        guard !isTerminal, !finished[index] else { return }
        switch completion {
        case .finished:
            finished[index] = true
            subscriptions[index] = nil
            guard !delivering, queues[index].isEmpty else { return }
            for subscription in end() { subscription.cancel() }
            downstream.receive(completion: .finished)
        case .failure:
            for subscription in end() { subscription.cancel() }
            downstream.receive(completion: completion)
        }
    }

    func request(_ more: ModelDemand) {
        for subscription in record(more) { subscription.request(more) }
    }

    func cancel() {
        guard !isTerminal else { return }
        for subscription in end() { subscription.cancel() }
    }
}

/// `combineLatest`, two to four upstreams.
final class ReferenceCombineLatest: ReferenceIndexedOwner, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var latest: [Int?]
    private var subscribed: [Bool]
    private var subscriptions: [(any ReferenceSubscription)?]
    private var finished: [Bool]
    private var demand = ModelDemand.none
    private var requested = ModelDemand.none
    private var isTerminal = false
    private var isEstablished = false
    private var pendingCompletion: Subscribers.Completion<ChainFailure>?
    private var delivering = false

    init(downstream: any ReferenceSubscriber, count: Int) {
        self.downstream = downstream
        latest = Array(repeating: nil, count: count)
        subscribed = Array(repeating: false, count: count)
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    func start(_ upstreams: [ReferencePublisher]) {
        for (index, upstream) in upstreams.enumerated() { upstream(ReferenceSide(owner: self, index: index)) }
        downstream.receive(subscription: self)
        isEstablished = true
        if pendingCompletion != nil, !delivering {
            delivering = true
            releaseTurn()
        }
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        guard !isTerminal, !subscribed[index] else { return subscription.cancel() }
        subscribed[index] = true
        subscriptions[index] = subscription
        if requested.isPositive { subscription.request(requested) }
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard !isTerminal else { return .none }
        latest[index] = value
        guard !delivering, demand.isPositive, !latest.contains(nil) else { return .none }
        demand.consumeOne()
        delivering = true
        let more = downstream.receive(ChainClosures.encode(latest.map { $0 ?? 0 }))
        guard more.isPositive, !isTerminal, demand != .unlimited else {
            releaseTurn()
            return .none
        }
        demand += more
        requested += more
        let others = subscriptions.enumerated().filter { $0.offset != index }.compactMap(\.element)
        releaseTurn()
        for other in others { other.request(more) }
        return more
    }

    /// Ends a delivery; delivers the completion that came meanwhile.
    private func releaseTurn() {
        if isEstablished, let completion = pendingCompletion {
            pendingCompletion = nil
            downstream.receive(completion: completion)
        }
        delivering = false
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        guard !isTerminal else { return }
        if case .finished = completion {
            guard !finished[index] else { return }
            finished[index] = true
            subscriptions[index] = nil
            guard !finished.contains(false) else { return }
        }
        isTerminal = true
        pendingCompletion = completion
        let released = subscriptions
        subscriptions = []
        if case .failure = completion {
            for (other, subscription) in released.enumerated() where other != index { subscription?.cancel() }
        }
        if isEstablished, !delivering {
            delivering = true
            releaseTurn()
        }
    }

    func request(_ more: ModelDemand) {
        guard !isTerminal else { return }
        demand += more
        requested += more
        for subscription in subscriptions { subscription?.request(more) }
    }

    func cancel() {
        pendingCompletion = nil
        guard !isTerminal else { return }
        isTerminal = true
        let all = subscriptions.compactMap { $0 }
        subscriptions = []
        for subscription in all { subscription.cancel() }
    }
}

/// `append`, `prepend` (concatenation) and `catch`: one publisher, then another.
final class ReferenceHandover: ReferenceIndexedOwner, ReferenceSubscription {
    private enum Stage {
        case awaitingFirst
        case first(any ReferenceSubscription)
        case handingOver
        case second(any ReferenceSubscription)
        case terminal

        var subscription: (any ReferenceSubscription)? {
            switch self {
            case .first(let subscription), .second(let subscription): subscription
            default: nil
            }
        }
    }

    private let downstream: any ReferenceSubscriber
    /// `catch` (the second publisher follows a failure) rather than concatenation (it follows the
    /// first one's finishing).
    private let catching: Bool
    private let second: ReferencePublisher
    private var stage = Stage.awaitingFirst
    private var demand = ModelDemand.none

    init(downstream: any ReferenceSubscriber, catching: Bool, second: @escaping ReferencePublisher) {
        self.downstream = downstream
        self.catching = catching
        self.second = second
    }

    func start(first: ReferencePublisher) {
        first(ReferenceSide(owner: self, index: 0))
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        if index == 0 {
            guard case .awaitingFirst = stage else { return subscription.cancel() }
            stage = .first(subscription)
            downstream.receive(subscription: self)
        } else {
            guard case .handingOver = stage else { return subscription.cancel() }
            stage = .second(subscription)
            if demand.isPositive { subscription.request(demand) }
        }
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard index == 0 else {
            // Concatenation passes on only what comes while the second publisher is current.
            if !catching, case .second = stage {} else if !catching { return .none }
            return downstream.receive(value)
        }
        if catching {
            precondition(demand.isPositive, "catch received a value with no outstanding demand")
        } else {
            guard case .first = stage, demand.isPositive else { return .none }
        }
        demand.consumeOne()
        let more = downstream.receive(value)
        if more.isPositive { demand += more }
        return more
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        guard index == 0 else {
            guard case .second = stage else { return }
            stage = .terminal
            downstream.receive(completion: completion)
            return
        }
        guard case .first = stage else { return }
        stage = .handingOver
        let switches: Bool
        switch completion {
        case .finished: switches = !catching
        case .failure: switches = catching
        }
        if switches {
            second(ReferenceSide(owner: self, index: 1))
        } else {
            stage = .terminal
            downstream.receive(completion: completion)
        }
    }

    func request(_ more: ModelDemand) {
        switch stage {
        case .first(let subscription):
            demand += more
            subscription.request(more)
        case .awaitingFirst, .handingOver:
            demand += more
        case .second(let subscription):
            subscription.request(more)
        case .terminal:
            break
        }
    }

    func cancel() {
        switch stage {
        case .first(let subscription), .second(let subscription):
            stage = .terminal
            subscription.cancel()
        case .awaitingFirst, .handingOver:
            if !catching { stage = .terminal }
        case .terminal:
            break
        }
    }
}

/// `prefix(untilOutputFrom:)`.
final class ReferencePrefixUntilOutput: ReferenceIndexedOwner, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var upstream = ReferenceStatus.awaiting
    private var other = ReferenceStatus.awaiting

    init(downstream: any ReferenceSubscriber) {
        self.downstream = downstream
    }

    func start(upstream: ReferencePublisher, other: ReferencePublisher) {
        other(ReferenceSide(owner: self, index: 1))
        upstream(ReferenceSide(owner: self, index: 0))
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        if index == 0 {
            guard case .awaiting = upstream else { return subscription.cancel() }
            upstream = .subscribed(subscription)
            downstream.receive(subscription: self)
        } else {
            guard case .awaiting = other else { return subscription.cancel() }
            other = .subscribed(subscription)
            subscription.request(.max(1))
        }
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        if index == 0 { return upstream.isSubscribed ? downstream.receive(value) : .none }
        guard other.isSubscribed else { return .none }
        other = .terminal
        let subscription = upstream.subscription
        upstream = .terminal
        subscription?.cancel()
        downstream.receive(completion: .finished)
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        guard index == 0 else {
            other = .terminal
            return
        }
        let wasLive = upstream.isSubscribed
        upstream = .terminal
        let otherSubscription = other.subscription
        other = .terminal
        otherSubscription?.cancel()
        if wasLive { downstream.receive(completion: completion) }
    }

    func request(_ demand: ModelDemand) {
        upstream.subscription?.request(demand)
    }

    func cancel() {
        let (first, second) = (upstream.subscription, other.subscription)
        upstream = .terminal
        other = .terminal
        first?.cancel()
        second?.cancel()
    }
}

/// `drop(untilOutputFrom:)`.
final class ReferenceDropUntilOutput: ReferenceIndexedOwner, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var upstream: (any ReferenceSubscription)?
    private var other: (any ReferenceSubscription)?
    private var triggered = false
    private var otherCompleted = false
    private var upstreamCompleted = false
    private var cancelled = false
    private var pendingDemand = ModelDemand.none

    init(downstream: any ReferenceSubscriber) {
        self.downstream = downstream
    }

    func start(upstream: ReferencePublisher, other: ReferencePublisher) {
        downstream.receive(subscription: self)
        other(ReferenceSide(owner: self, index: 1))
        upstream(ReferenceSide(owner: self, index: 0))
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        if index == 0 {
            guard upstream == nil, !cancelled, !upstreamCompleted else { return subscription.cancel() }
            upstream = subscription
            if pendingDemand.isPositive { subscription.request(pendingDemand) }
        } else {
            guard other == nil, !otherCompleted, !cancelled, !upstreamCompleted else { return subscription.cancel() }
            other = subscription
            subscription.request(.max(1))
        }
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard index == 0 else {
            triggered = true
            other = nil
            return .none
        }
        guard triggered, !cancelled, !upstreamCompleted else {
            pendingDemand.consumeOne()
            return .none
        }
        return downstream.receive(value)
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        if index == 0 {
            guard !cancelled, !upstreamCompleted else { return }
            upstreamCompleted = true
            upstream = nil
            let otherSubscription = other
            other = nil
            otherSubscription?.cancel()
            downstream.receive(completion: completion)
        } else {
            other = nil
            guard !triggered, !cancelled else { return }
            otherCompleted = true
            let subscription = upstream
            upstream = nil
            subscription?.cancel()
            downstream.receive(completion: completion)
        }
    }

    func request(_ demand: ModelDemand) {
        pendingDemand += demand
        if demand.isPositive { upstream?.request(demand) }
    }

    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        let (first, second) = (upstream, other)
        upstream = nil
        other = nil
        first?.cancel()
        second?.cancel()
    }
}
