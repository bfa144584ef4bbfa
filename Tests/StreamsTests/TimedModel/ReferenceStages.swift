import Streams

// The parts of the timed reference that do not depend on time: the protocols its stages speak, the
// sources, the synchronous operators and the scripted subscriber. Each follows Combine's documented
// rules in the simplest single-threaded way.

/// The reference's subscription.
protocol ReferenceSubscription: AnyObject {
    func request(_ demand: ModelDemand)
    func cancel()
}

/// The reference's subscriber.
protocol ReferenceSubscriber: AnyObject {
    func receive(subscription: any ReferenceSubscription)
    func receive(_ value: Int) -> ModelDemand
    func receive(completion: Subscribers.Completion<ChainFailure>)
}

/// A reference publisher: what subscribing to it does.
typealias ReferencePublisher = (any ReferenceSubscriber) -> Void

/// A `PassthroughSubject`: each subscriber has its own demand, and a value sent without it is dropped
/// for that subscriber; values go to the subscribers in the order they subscribed; a subscriber that
/// comes after the completion gets a subscription and the completion at once. Subscribed to upstream
/// publishers (through ``ReferenceSubjectSubscriber``), it asks them for everything, but only once one
/// of its subscribers has asked for something.
final class ReferenceSubject {
    /// One subscriber's subscription.
    private final class Conduit: ReferenceSubscription {
        private weak var subject: ReferenceSubject?
        var downstream: (any ReferenceSubscriber)?
        var demand = ModelDemand.none

        init(subject: ReferenceSubject, downstream: any ReferenceSubscriber) {
            self.subject = subject
            self.downstream = downstream
        }

        func request(_ more: ModelDemand) {
            guard downstream != nil else { return }
            demand += more
            subject?.acknowledgeDownstreamDemand()
        }

        func cancel() {
            downstream = nil
            subject?.conduits.removeAll { $0 === self }
        }
    }

    private var conduits: [Conduit] = []
    private var completion: Subscribers.Completion<ChainFailure>?
    /// The subscriptions of the upstream publishers the subject is subscribed to.
    private var upstreamSubscriptions: [any ReferenceSubscription] = []
    /// Whether any subscriber has ever asked for values.
    private var hasDownstreamDemand = false

    /// Whether a subscriber is still attached.
    var hasSubscribers: Bool { conduits.contains { $0.downstream != nil } }

    func subscribe(_ subscriber: any ReferenceSubscriber) {
        if let completion {
            subscriber.receive(subscription: ReferenceEmptySubscription())
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(subject: self, downstream: subscriber)
        conduits.append(conduit)
        subscriber.receive(subscription: conduit)
    }

    func send(_ value: Int) {
        for conduit in conduits {
            guard let downstream = conduit.downstream, conduit.demand.isPositive else { continue }
            conduit.demand.consumeOne()
            let more = downstream.receive(value)
            if conduit.downstream != nil { conduit.demand += more }
        }
    }

    /// Keeps the subscription of an upstream publisher, and asks it for everything at once if a
    /// subscriber has already asked for values (otherwise when one first does).
    func send(subscription: any ReferenceSubscription) {
        upstreamSubscriptions.append(subscription)
        if hasDownstreamDemand { subscription.request(.unlimited) }
    }

    /// A subscriber asked for values: the first time, the upstream subscriptions kept so far are
    /// asked for everything.
    private func acknowledgeDownstreamDemand() {
        guard !hasDownstreamDemand else { return }
        hasDownstreamDemand = true
        for subscription in upstreamSubscriptions { subscription.request(.unlimited) }
    }

    func send(completion: Subscribers.Completion<ChainFailure>) {
        guard self.completion == nil else { return }
        self.completion = completion
        let all = conduits
        conduits = []
        for conduit in all {
            let subscriber = conduit.downstream
            conduit.downstream = nil
            subscriber?.receive(completion: completion)
        }
    }
}

/// A subscription that has nothing to give (a completed subject's).
final class ReferenceEmptySubscription: ReferenceSubscription {
    func request(_ demand: ModelDemand) {}
    func cancel() {}
}

/// A timer, autoconnected: it starts ticking when subscribed (after handing over the subscription),
/// ticks every `interval` with the time, drops a tick nobody asked for, and stops when cancelled.
final class ReferenceTimer: ReferenceSubscription {
    private let timeline: ReferenceTimeline
    private let interval: Int
    private var downstream: (any ReferenceSubscriber)?
    private var demand = ModelDemand.none
    private var repetition: ReferenceRepetition?

    init(every interval: Int, on timeline: ReferenceTimeline) {
        self.interval = interval
        self.timeline = timeline
    }

    func subscribe(_ subscriber: any ReferenceSubscriber) {
        downstream = subscriber
        subscriber.receive(subscription: self)
        guard downstream != nil else { return }
        repetition = timeline.scheduleRepeating(after: interval, every: interval) { [self] in tick() }
    }

    private func tick() {
        guard let downstream, demand.isPositive else { return }
        demand.consumeOne()
        let more = downstream.receive(timeline.now)
        if self.downstream != nil { demand += more }
    }

    func request(_ more: ModelDemand) {
        if downstream != nil { demand += more }
    }

    func cancel() {
        downstream = nil
        repetition?.cancel()
    }
}

/// An operator that hands everything on unchanged; the synchronous operators change what they need.
class ReferenceRelay: ReferenceSubscriber, ReferenceSubscription {
    var upstream: (any ReferenceSubscription)?
    var downstream: (any ReferenceSubscriber)?

    init(downstream: any ReferenceSubscriber) {
        self.downstream = downstream
    }

    func receive(subscription: any ReferenceSubscription) {
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        downstream?.receive(value) ?? .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        let subscriber = downstream
        downstream = nil
        upstream = nil
        subscriber?.receive(completion: completion)
    }

    func request(_ demand: ModelDemand) {
        upstream?.request(demand)
    }

    func cancel() {
        downstream = nil
        let subscription = upstream
        upstream = nil
        subscription?.cancel()
    }
}

/// `map`, `filter`, `compactMap` and `scan`, which, as in Combine, hand the upstream's subscription
/// on as it is and keep no state of their own: what the upstream sends after a cancel still passes
/// through them. A value that is dropped asks upstream for one more.
final class ReferencePassThrough: ReferenceSubscriber {
    private let downstream: any ReferenceSubscriber
    private let transform: (Int) -> Int?

    /// `transform` returns the value to publish, or `nil` to drop the input.
    init(downstream: any ReferenceSubscriber, transform: @escaping (Int) -> Int?) {
        self.downstream = downstream
        self.transform = transform
    }

    func receive(subscription: any ReferenceSubscription) {
        downstream.receive(subscription: subscription)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard let output = transform(value) else { return .max(1) }
        return downstream.receive(output)
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        downstream.receive(completion: completion)
    }
}

/// `removeDuplicates()`, which keeps a subscription of its own: after a cancel or the completion it
/// passes nothing on. A repeated value asks upstream for one more.
final class ReferenceRemoveDuplicates: ReferenceRelay {
    private var previous: Int?

    override func receive(_ value: Int) -> ModelDemand {
        guard let downstream else { return .none }
        defer { previous = value }
        return previous == value ? .max(1) : downstream.receive(value)
    }
}

/// `prefix(_:)`: after the `count`-th value, cancels upstream and finishes. As Combine's `Output`
/// does, it counts and passes on values whatever its state: a value an upstream sends after a cancel
/// (a `delay` whose upstream has completed keeps sending) still reaches the subscriber, up to the
/// count.
final class ReferencePrefix: ReferenceSubscriber, ReferenceSubscription {
    private let downstream: any ReferenceSubscriber
    private var status = ReferenceStatus.awaiting
    private var remaining: Int

    init(downstream: any ReferenceSubscriber, count: Int) {
        self.downstream = downstream
        remaining = count
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        downstream.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard remaining > 0 else {
            finish()
            return .none
        }
        remaining -= 1
        let demand = downstream.receive(value)
        if remaining == 0 { finish() }
        return demand
    }

    /// Cancels upstream and finishes, unless the stream already ended.
    private func finish() {
        guard let subscription = status.subscription else { return }
        status = .terminal
        subscription.cancel()
        downstream.receive(completion: .finished)
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed else { return }
        status = .terminal
        downstream.receive(completion: completion)
    }

    func request(_ demand: ModelDemand) {
        status.subscription?.request(demand)
    }

    func cancel() {
        let subscription = status.subscription
        status = .terminal
        subscription?.cancel()
    }
}

/// A subscriber of a timed case: follows its ``SubscriberScript`` and records what it sees with the
/// time and its name.
final class ReferenceRecorder: ReferenceSubscriber {
    /// "" for the main subscriber, or the name of one of a shared publisher's others.
    let name: String
    private let script: SubscriberScript
    private let timeline: ReferenceTimeline
    private let log: TimedEventLog
    private var subscription: (any ReferenceSubscription)?
    private var received = 0
    private(set) var isDone = false

    /// Records into `log` (a log of its own by default) under `name`.
    init(script: SubscriberScript, timeline: ReferenceTimeline, log: TimedEventLog = TimedEventLog(), name: String = "")
    {
        self.script = script
        self.timeline = timeline
        self.log = log
        self.name = name
    }

    /// What was recorded in its log, by it and by the subscribers sharing the log.
    var events: [TimedEvent] { log.events }

    func receive(subscription: any ReferenceSubscription) {
        log.events.append(TimedEvent(time: timeline.now, event: .subscription, subscriber: name))
        self.subscription = subscription
        if script.initialDemand.isPositive { subscription.request(script.initialDemand) }
    }

    func receive(_ value: Int) -> ModelDemand {
        log.events.append(TimedEvent(time: timeline.now, event: .value(value), subscriber: name))
        received += 1
        let inside = script.request(insideValue: received)
        if inside.isPositive { subscription?.request(inside) }
        if received == script.cancelAtValue { cancel() }
        return isDone ? .none : script.demand(afterValue: received)
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        switch completion {
        case .finished: log.events.append(TimedEvent(time: timeline.now, event: .finished, subscriber: name))
        case .failure(let failure):
            log.events.append(TimedEvent(time: timeline.now, event: .failure(failure), subscriber: name))
        }
        isDone = true
        subscription = nil
    }

    /// A scripted request.
    func request(_ demand: ModelDemand) {
        guard !isDone else { return }
        subscription?.request(demand)
    }

    /// Cancels, once.
    func cancel() {
        guard !isDone else { return }
        isDone = true
        let current = subscription
        subscription = nil
        current?.cancel()
    }
}
