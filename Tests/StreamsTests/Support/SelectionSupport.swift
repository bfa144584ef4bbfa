import Streams
import StreamsTesting
import Synchronization
import Testing

/// The error the selection and reduction tests send upstream or throw from closures.
enum SelectionTestError: Error, Equatable {
    case oops
    case other
    /// Stands for an error of another type, when events are compared.
    case foreign
}

/// What a ``SelectionSubscription`` was asked to do.
enum SelectionUpstreamEvent: Equatable {
    case requested(Subscribers.Demand)
    case cancelled
}

/// A subscription that records every request and cancel, in order.
final class SelectionSubscription: Subscription, Sendable {
    private let recorded = Mutex<[SelectionUpstreamEvent]>([])

    /// Everything asked of the subscription so far.
    var events: [SelectionUpstreamEvent] {
        recorded.withLock { $0 }
    }

    func request(_ demand: Subscribers.Demand) {
        recorded.withLock { $0.append(.requested(demand)) }
    }

    func cancel() {
        recorded.withLock { $0.append(.cancelled) }
    }
}

/// A publisher the test drives by hand.
///
/// It keeps the last subscriber it was given and, unless told otherwise, hands it ``subscription``.
/// The test then sends values (and sees the demand the subscriber returns), completions, or further
/// subscriptions, as a well-behaved or a misbehaving upstream would.
final class SelectionUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: `subscriber` is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var subscriber: AnySubscriber<Output, Failure>?
    private let sendsSubscription: Bool

    /// The subscription handed to the subscriber.
    let subscription = SelectionSubscription()

    /// Creates an upstream; with `sendsSubscription` false, the test sends the subscription itself.
    init(sendsSubscription: Bool = true) {
        self.sendsSubscription = sendsSubscription
    }

    /// What the subscriber asked of ``subscription``.
    var events: [SelectionUpstreamEvent] { subscription.events }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { _ in self.subscriber = AnySubscriber(subscriber) }
        if sendsSubscription { subscriber.receive(subscription: subscription) }
    }

    private var current: AnySubscriber<Output, Failure> {
        guard let subscriber = lock.withLock({ _ in self.subscriber }) else {
            preconditionFailure("Nothing subscribed to the test upstream")
        }
        return subscriber
    }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        current.receive(value)
    }

    /// Sends a completion.
    func send(completion: Subscribers.Completion<Failure>) {
        current.receive(completion: completion)
    }

    /// Hands the subscriber a subscription, as an upstream that subscribes late or twice would.
    func send(subscription: any Subscription) {
        current.receive(subscription: subscription)
    }
}

extension TestSubscriber where Failure == any Error {
    /// The events, with failures cast to ``SelectionTestError`` (any other error reads as
    /// ``SelectionTestError/foreign``), so they can be compared.
    var typedEvents: [TestSubscriber<Input, SelectionTestError>.Event] {
        events.map { event in
            switch event {
            case .subscription: .subscription
            case .value(let value): .value(value)
            case .completion(.finished): .completion(.finished)
            case .completion(.failure(let error)):
                .completion(.failure(error as? SelectionTestError ?? .foreign))
            }
        }
    }
}

/// Records what a subscription looked like when it arrived and what upstream had been asked by then.
final class SubscriptionProbe<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var seen: (description: String, upstreamEvents: [SelectionUpstreamEvent])?
    private let upstream: SelectionSubscription

    init(watching upstream: SelectionSubscription) {
        self.upstream = upstream
    }

    /// The subscription's description and what upstream had been asked when it arrived.
    var arrival: (description: String, upstreamEvents: [SelectionUpstreamEvent])? {
        lock.withLock { _ in seen }
    }

    func receive(subscription: any Subscription) {
        let snapshot = (String(describing: subscription), upstream.events)
        lock.withLock { _ in seen = snapshot }
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}
}

/// Checks what every operator built on the reduce-like pattern shares: subscription first, then an
/// unlimited request upstream; a failure passed on at once; cancellation reaching upstream; a second
/// subscription refused; nothing kept alive after cancel.
///
/// - Parameters:
///   - name: What the operator's subscription must print.
///   - makeOperator: Applies the operator to the given upstream.
func checkReduceLikeContract<P: Publisher>(
    name: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ makeOperator: (AnyPublisher<Int, SelectionTestError>) -> P
) {
    // Subscription downstream first, then one unlimited request upstream.
    do {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let probe = SubscriptionProbe<P.Output, P.Failure>(watching: upstream.subscription)
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(probe)
        #expect(probe.arrival?.description == name, sourceLocation: sourceLocation)
        #expect(probe.arrival?.upstreamEvents == [], sourceLocation: sourceLocation)
        #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    }
    // Upstream failure reaches downstream at once, with no value, even without demand.
    do {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: .none)
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(subscriber.values.isEmpty, sourceLocation: sourceLocation)
        #expect(subscriber.events.count == 2, sourceLocation: sourceLocation)
        if case .failure(let error) = subscriber.completion {
            #expect((error as any Error) as? SelectionTestError == .oops, sourceLocation: sourceLocation)
        } else {
            Issue.record("Expected the upstream failure", sourceLocation: sourceLocation)
        }
        #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
    }
    // Cancel reaches upstream; nothing is delivered afterwards.
    do {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled], sourceLocation: sourceLocation)
        #expect(upstream.send(1) == Subscribers.Demand.none, sourceLocation: sourceLocation)
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 1, sourceLocation: sourceLocation)
    }
    // A second subscription is cancelled and changes nothing.
    do {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled], sourceLocation: sourceLocation)
        #expect(upstream.events == [.requested(.unlimited)], sourceLocation: sourceLocation)
        #expect(subscriber.subscriptionCount == 1, sourceLocation: sourceLocation)
    }
    // After cancel, neither the upstream subject nor the operator's subscription stays alive.
    do {
        weak var weakSubject: PassthroughSubject<Int, SelectionTestError>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, SelectionTestError>()
            weakSubject = subject
            let subscriber = TestSubscriber<P.Output, P.Failure>()
            makeOperator(subject.eraseToAnyPublisher()).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil, sourceLocation: sourceLocation)
        #expect(weakInner == nil, sourceLocation: sourceLocation)
    }
}
