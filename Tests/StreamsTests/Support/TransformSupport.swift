import Streams
import StreamsTesting
import Synchronization

/// The errors the transform-operator tests send and throw.
enum TransformTestError: Error, Equatable {
    case upstream
    case thrown(Int)
    /// An error that is not a `TransformTestError`, by its description, so a mismatch shows.
    case foreign(String)

    /// The error as a `TransformTestError`, or `.foreign` describing it.
    static func from(_ error: any Error) -> TransformTestError {
        error as? TransformTestError ?? .foreign(String(describing: error))
    }
}

/// What a ``TransformTestPublisher`` saw its subscriber do with the subscription.
enum TransformUpstreamCall: Equatable {
    case request(Subscribers.Demand)
    case cancel
}

/// A publisher the test drives by hand: it gives its one subscriber a recording subscription, and
/// sends values, completions and extra subscriptions straight into that subscriber, returning the
/// demand the subscriber answers with.
///
/// Unlike a well-behaved publisher it keeps sending after a cancel when told to, so tests can check
/// that an operator itself drops what comes after the end.
final class TransformTestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every mutable stored property is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var downstream: AnySubscriber<Output, Failure>?
    private var subscriberObject: Any?

    /// The subscription handed to the subscriber.
    let subscription = TransformTestSubscription()

    init() {}

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { _ in
            downstream = AnySubscriber(subscriber)
            subscriberObject = subscriber
        }
        subscriber.receive(subscription: subscription)
    }

    /// What the subscriber did with the subscription, in order.
    var calls: [TransformUpstreamCall] {
        subscription.calls
    }

    /// The subscriber this publisher received (the operator's inner subscriber), for reflection.
    var subscriber: Any? {
        lock.withLock { _ in subscriberObject }
    }

    private var target: AnySubscriber<Output, Failure> {
        guard let downstream = lock.withLock({ _ in downstream }) else {
            preconditionFailure("TransformTestPublisher has no subscriber")
        }
        return downstream
    }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        target.receive(value)
    }

    /// Sends a completion.
    func send(completion: Subscribers.Completion<Failure>) {
        target.receive(completion: completion)
    }

    /// Sends another subscription to the subscriber, as a misbehaving publisher would.
    func send(subscription: any Subscription) {
        target.receive(subscription: subscription)
    }

    /// Lets go of the subscriber.
    func detach() {
        let released = lock.withLock { _ in
            subscriberObject = nil
            return downstream.take()
        }
        withExtendedLifetime(released) {}
    }
}

/// The subscription a ``TransformTestPublisher`` hands out: it reports every call.
final class TransformTestSubscription: Subscription, CustomStringConvertible, Sendable {
    private let recorded = Mutex<[TransformUpstreamCall]>([])

    /// Every call, in order.
    var calls: [TransformUpstreamCall] {
        recorded.withLock { $0 }
    }

    func request(_ demand: Subscribers.Demand) {
        recorded.withLock { $0.append(.request(demand)) }
    }

    func cancel() {
        recorded.withLock { $0.append(.cancel) }
    }

    var description: String { "TransformTestSubscription" }
}

/// A subscription that only counts its calls, for checking what happens to a second subscription.
final class TransformCountingSubscription: Subscription, Sendable {
    private let counts = Mutex((requests: 0, cancels: 0))

    var requests: Int { counts.withLock { $0.requests } }
    var cancels: Int { counts.withLock { $0.cancels } }

    func request(_ demand: Subscribers.Demand) {
        counts.withLock { $0.requests += 1 }
    }

    func cancel() {
        counts.withLock { $0.cancels += 1 }
    }
}

/// A recorded event whose failure is a ``TransformTestError``, so events of `any Error` publishers
/// can be compared.
enum TransformEvent<Input: Equatable>: Equatable {
    case subscription
    case value(Input)
    case completion(Subscribers.Completion<TransformTestError>)
}

extension TestSubscriber where Input: Equatable {
    /// The events, with every failure turned into a ``TransformTestError``.
    var transformEvents: [TransformEvent<Input>] {
        events.map { event in
            switch event {
            case .subscription:
                return .subscription
            case .value(let value):
                return .value(value)
            case .completion(.finished):
                return .completion(.finished)
            case .completion(.failure(let error)):
                return .completion(.failure(TransformTestError.from(error)))
            }
        }
    }
}

/// The description, playground description and mirror child labels of an operator's subscriber or
/// subscription.
struct TransformReflection: Equatable {
    let description: String
    let playgroundDescription: String?
    let childLabels: [String]

    init(description: String, playgroundDescription: String?, childLabels: [String]) {
        self.description = description
        self.playgroundDescription = playgroundDescription
        self.childLabels = childLabels
    }

    init(of subject: Any) {
        description = String(describing: subject)
        playgroundDescription = (subject as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
        childLabels = Mirror(reflecting: subject).children.map { $0.label ?? "" }
    }

    /// What an operator named `name` shows, with the given mirror children.
    static func named(_ name: String, children: [String] = []) -> TransformReflection {
        TransformReflection(description: name, playgroundDescription: name, childLabels: children)
    }
}

/// A flag several threads can set and read.
final class TransformFlag: Sendable {
    private let value = Atomic(false)

    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }

    func set() { value.store(true, ordering: .sequentiallyConsistent) }
}
