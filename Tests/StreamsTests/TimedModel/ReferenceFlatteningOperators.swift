import Streams

// The operators of the timed reference that subscribe to publishers as they come, and buffer, each
// written from Combine's rules for it:
// - switchToLatest: asks its upstream for every publisher; each new one cancels the current one;
//   the current one is asked for what downstream still wants; finishes when the upstream and the
//   current publisher have finished; any failure ends it.
// - flatMap(maxPublishers:): asks upstream for that many publishers, and for one more as each
//   finishes; asks each publisher for one value at a time (everything once demand is unlimited);
//   values without demand wait in arrival order; finishes when the upstream and every publisher
//   have finished and nothing waits; the first failure cancels the rest.
// - retry: subscribes again after a failure, while retries are left, and asks the new subscription
//   for what is still owed; the subscriber sees one subscription.
// - buffer: asks upstream for everything (or for its size, refilled as values go out, with
//   `keepFull`); when full, drops the newest or the oldest, or fails (the failure goes out before
//   what is buffered, at the next chance to deliver).

/// `map { subjects[…] }.switchToLatest()`: the upstream's values choose the publisher.
final class ReferenceSwitchToLatest: ReferenceSubscriber, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private let publisherFor: (Int) -> ReferencePublisher
    private var outer = ReferenceStatus.awaiting
    private var outerCompleted = false
    private var inner: (any ReferenceSubscription)?
    private var innerIndex = 0
    private var awaitingInnerSubscription = false
    private var demand = ModelDemand.none
    private var isCancelled = false
    private var sentCompletion = false

    init(downstream: any ReferenceSubscriber, publisherFor: @escaping (Int) -> ReferencePublisher) {
        self.downstream = downstream
        self.publisherFor = publisherFor
    }

    func start(_ upstream: ReferencePublisher) {
        downstream.receive(subscription: self)
        upstream(self)
    }

    func receive(subscription: any ReferenceSubscription) {
        guard case .awaiting = outer else { return subscription.cancel() }
        outer = .subscribed(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard !isCancelled, !outerCompleted else { return .none }
        innerIndex += 1
        awaitingInnerSubscription = true
        let replaced = inner
        inner = nil
        replaced?.cancel()
        publisherFor(value)(InnerSide(owner: self, index: innerIndex))
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        outer = .terminal
        outerCompleted = true
        guard !isCancelled else { return }
        if case .failure = completion {
            sentCompletion = true
            let current = inner
            inner = nil
            current?.cancel()
            downstream.receive(completion: completion)
            return
        }
        guard !awaitingInnerSubscription, inner == nil else { return }
        sentCompletion = true
        downstream.receive(completion: completion)
    }

    fileprivate func innerReceive(subscription: any ReferenceSubscription, index: Int) {
        guard index == innerIndex, !isCancelled, inner == nil else { return subscription.cancel() }
        inner = subscription
        awaitingInnerSubscription = false
        if demand.isPositive { subscription.request(demand) }
    }

    fileprivate func innerReceive(_ value: Int, index: Int) -> ModelDemand {
        guard index == innerIndex, !isCancelled else { return .none }
        precondition(demand.isPositive, "switchToLatest received a value with no outstanding demand")
        demand.consumeOne()
        let more = downstream.receive(value)
        if more.isPositive { demand += more }
        return more
    }

    fileprivate func innerReceive(completion: Subscribers.Completion<ChainFailure>, index: Int) {
        guard index == innerIndex, !isCancelled else { return }
        inner = nil
        guard !sentCompletion else { return }
        if case .failure = completion {
            isCancelled = true
            sentCompletion = true
            let subscription = outer.subscription
            outer = .terminal
            subscription?.cancel()
            downstream.receive(completion: completion)
            return
        }
        guard outerCompleted else { return }
        sentCompletion = true
        downstream.receive(completion: completion)
    }

    func request(_ more: ModelDemand) {
        demand += more
        inner?.request(more)
    }

    func cancel() {
        isCancelled = true
        let (current, upstream) = (inner, outer.subscription)
        inner = nil
        outer = .terminal
        current?.cancel()
        upstream?.cancel()
    }

    /// The subscriber given to the `index`-th publisher.
    private final class InnerSide: ReferenceSubscriber {
        let owner: ReferenceSwitchToLatest
        let index: Int

        init(owner: ReferenceSwitchToLatest, index: Int) {
            self.owner = owner
            self.index = index
        }

        func receive(subscription: any ReferenceSubscription) {
            owner.innerReceive(subscription: subscription, index: index)
        }

        func receive(_ value: Int) -> ModelDemand {
            owner.innerReceive(value, index: index)
        }

        func receive(completion: Subscribers.Completion<ChainFailure>) {
            owner.innerReceive(completion: completion, index: index)
        }
    }
}

/// `flatMap(maxPublishers:) { subjects[…] }`: the upstream's values choose the publisher.
final class ReferenceFlatMap: ReferenceSubscriber, ReferenceSubscription, ReferenceIndexedOwner {
    private let downstream: any ReferenceSubscriber
    private let maxPublishers: ModelDemand
    private let publisherFor: (Int) -> ReferencePublisher
    private var upstream = ReferenceStatus.awaiting
    private var upstreamFinished = false
    /// The publishers not finished yet, by index: `nil` until their subscription comes.
    private var children: [Int: (any ReferenceSubscription)?] = [:]
    private var nextChild = 0
    private var demand = ModelDemand.none
    private var buffer: [(child: Int, value: Int)] = []
    private var delivering = false
    private var isTerminal = false
    private var isCancelled = false

    init(
        downstream: any ReferenceSubscriber, maxPublishers: ModelDemand,
        publisherFor: @escaping (Int) -> ReferencePublisher
    ) {
        self.downstream = downstream
        self.maxPublishers = maxPublishers
        self.publisherFor = publisherFor
    }

    func start(_ upstreamPublisher: ReferencePublisher) {
        downstream.receive(subscription: self)
        upstreamPublisher(self)
    }

    func receive(subscription: any ReferenceSubscription) {
        guard !isTerminal, case .awaiting = upstream else { return subscription.cancel() }
        upstream = .subscribed(subscription)
        subscription.request(maxPublishers)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard !isTerminal, upstream.isSubscribed else { return .none }
        let index = nextChild
        nextChild += 1
        children[index] = .some(nil)
        publisherFor(value)(ReferenceSide(owner: self, index: index))
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        switch completion {
        case .finished:
            upstream = .terminal
            upstreamFinished = true
            if !isTerminal { drainIfIdle() }
        case .failure:
            if !isTerminal { fail(completion, sparing: nil) }
        }
    }

    func receive(subscription: any ReferenceSubscription, upstream index: Int) {
        guard !isTerminal, case .some(.none) = children[index] else { return subscription.cancel() }
        children[index] = subscription
        subscription.request(demand == .unlimited ? .unlimited : .max(1))
    }

    func receive(_ value: Int, upstream index: Int) -> ModelDemand {
        guard !isCancelled, !isTerminal else { return .none }
        if !delivering, buffer.isEmpty, demand.isPositive {
            delivering = true
            let unlimited = demand == .unlimited
            demand.consumeOne()
            drain(adding: downstream.receive(value))
            return unlimited ? .none : .max(1)
        }
        buffer.append((index, value))
        if !delivering, demand.isPositive {
            delivering = true
            drain(adding: .none)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>, upstream index: Int) {
        switch completion {
        case .finished:
            guard !isTerminal else { return }
            children[index] = nil
            let next = maxPublishers == .unlimited ? nil : upstream.subscription
            drainIfIdle()
            next?.request(.max(1))
        case .failure:
            if !isTerminal, children[index] != nil { fail(completion, sparing: index) }
        }
    }

    private func fail(_ completion: Subscribers.Completion<ChainFailure>, sparing failed: Int?) {
        isTerminal = true
        let others = children.filter { $0.key != failed }.sorted { $0.key < $1.key }.compactMap { $0.value }
        children = [:]
        buffer = []
        upstream = .terminal
        for other in others { other.cancel() }
        downstream.receive(completion: completion)
    }

    private func drainIfIdle() {
        guard !delivering else { return }
        delivering = true
        drain(adding: .none)
    }

    private func drain(adding initial: ModelDemand) {
        var more = initial
        while true {
            if isTerminal { break }
            if more.isPositive { demand += more }
            more = .none
            if demand.isPositive, !buffer.isEmpty {
                let (child, value) = buffer.removeFirst()
                demand.consumeOne()
                let source = demand == .unlimited ? nil : children[child] ?? nil
                more = downstream.receive(value)
                source?.request(.max(1))
                continue
            }
            if upstreamFinished, children.isEmpty, buffer.isEmpty {
                isTerminal = true
                downstream.receive(completion: .finished)
            }
            break
        }
        delivering = false
    }

    func request(_ more: ModelDemand) {
        guard !isTerminal else { return }
        let wasUnlimited = demand == .unlimited
        demand += more
        let unleash =
            !wasUnlimited && demand == .unlimited
            ? children.sorted { $0.key < $1.key }.compactMap { $0.value } : []
        drainIfIdle()
        for subscription in unleash { subscription.request(.unlimited) }
    }

    func cancel() {
        isCancelled = true
        guard !isTerminal else { return }
        isTerminal = true
        var all = children.sorted { $0.key < $1.key }.compactMap { $0.value }
        if let subscription = upstream.subscription { all.append(subscription) }
        children = [:]
        buffer = []
        upstream = .terminal
        for subscription in all { subscription.cancel() }
    }
}

/// `retry(_:)` over a publisher that subscribes to the next subject each time.
final class ReferenceRetry: ReferenceSubscriber, ReferenceSubscription {
    private var downstream: (any ReferenceSubscriber)?
    private var upstream: ReferencePublisher?
    private var subscription: (any ReferenceSubscription)?
    private var remaining: Int
    private var demand = ModelDemand.none
    private var sentSubscription = false
    private var isResubscribing = false
    private var needsResubscribe = false

    init(downstream: any ReferenceSubscriber, upstream: @escaping ReferencePublisher, retries: Int) {
        self.downstream = downstream
        self.upstream = upstream
        remaining = retries
    }

    func start() {
        upstream?(self)
    }

    func receive(subscription: any ReferenceSubscription) {
        guard let downstream, self.subscription == nil else { return subscription.cancel() }
        self.subscription = subscription
        let first = !sentSubscription
        sentSubscription = true
        // What is owed is what was asked before this subscription came.
        let owed = demand
        if first { downstream.receive(subscription: self) }
        if owed.isPositive { subscription.request(owed) }
    }

    func receive(_ value: Int) -> ModelDemand {
        guard let downstream else { return .none }
        precondition(demand.isPositive, "retry received a value with no outstanding demand")
        demand.consumeOne()
        let more = downstream.receive(value)
        if more.isPositive, self.downstream != nil {
            demand += more
            subscription?.request(more)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard downstream != nil else { return }
        subscription = nil
        if case .failure = completion, remaining != 0 {
            remaining -= 1
            if isResubscribing {
                needsResubscribe = true
                return
            }
            isResubscribing = true
            resubscribe()
            return
        }
        let subscriber = downstream
        downstream = nil
        upstream = nil
        subscriber?.receive(completion: completion)
    }

    private func resubscribe() {
        while true {
            needsResubscribe = false
            guard let upstream else {
                isResubscribing = false
                return
            }
            upstream(self)
            guard needsResubscribe, downstream != nil else {
                isResubscribing = false
                return
            }
        }
    }

    func request(_ more: ModelDemand) {
        guard downstream != nil else { return }
        demand += more
        subscription?.request(more)
    }

    func cancel() {
        guard downstream != nil else { return }
        downstream = nil
        upstream = nil
        let current = subscription
        subscription = nil
        current?.cancel()
    }
}

/// `buffer(size:prefetch:whenFull:)`.
final class ReferenceBuffer: ReferenceSubscriber, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private let size: Int
    private let keepFull: Bool
    private let whenFull: BufferFullness
    private var status = ReferenceStatus.awaiting
    private var demand = ModelDemand.none
    private var values: [Int] = []
    private var terminal: Subscribers.Completion<ChainFailure>?
    private var delivering = false

    init(downstream: any ReferenceSubscriber, size: Int, keepFull: Bool, whenFull: BufferFullness) {
        self.downstream = downstream
        self.size = size
        self.keepFull = keepFull
        self.whenFull = whenFull
    }

    func receive(subscription: any ReferenceSubscription) {
        guard case .awaiting = status else { return subscription.cancel() }
        status = .subscribed(subscription)
        subscription.request(keepFull ? .max(size) : .unlimited)
        downstream.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard let subscription = status.subscription else { return .none }
        if case .failure = terminal { return .none }
        if values.count >= size {
            switch whenFull {
            case .dropNewest:
                return drain()
            case .dropOldest:
                values.removeFirst()
            case .fail:
                terminal = .failure(.full)
                subscription.cancel()
                return .none
            }
        }
        values.append(value)
        return drain()
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed, terminal == nil else { return }
        terminal = completion
        _ = drain()
    }

    /// Delivers what demand allows; returns what to ask upstream for (with `keepFull`).
    private func drain() -> ModelDemand {
        guard !delivering else { return .none }
        delivering = true
        defer { delivering = false }
        var upstreamDemand = ModelDemand.none
        while status.isSubscribed {
            guard demand.isPositive else {
                if case .failure = terminal, let terminal {
                    status = .terminal
                    downstream.receive(completion: terminal)
                }
                break
            }
            if values.isEmpty {
                if let terminal {
                    status = .terminal
                    downstream.receive(completion: terminal)
                }
                break
            }
            let count = demand.limit.map { min($0, values.count) } ?? values.count
            let batch = Array(values.prefix(count))
            values.removeFirst(count)
            if let limit = demand.limit { demand = .max(limit - count) }
            var more = ModelDemand.none
            for value in batch { more += downstream.receive(value) }
            if keepFull { upstreamDemand += .max(batch.count) }
            demand += more
        }
        return upstreamDemand
    }

    func request(_ more: ModelDemand) {
        guard let subscription = status.subscription else { return }
        demand += more
        guard !delivering else { return }
        let upstreamDemand = drain()
        if upstreamDemand.isPositive { subscription.request(upstreamDemand) }
    }

    func cancel() {
        guard let subscription = status.subscription else { return }
        status = .terminal
        values = []
        subscription.cancel()
    }
}

/// What a full buffer does with one more value.
enum BufferFullness: Equatable, Sendable, CustomStringConvertible {
    case dropNewest
    case dropOldest
    /// `.customError { ChainFailure.full }`.
    case fail

    var description: String {
        switch self {
        case .dropNewest: ".dropNewest"
        case .dropOldest: ".dropOldest"
        case .fail: ".customError { .full }"
        }
    }
}
