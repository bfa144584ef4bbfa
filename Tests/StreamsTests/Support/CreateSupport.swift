import Streams
import Synchronization

/// The error the tests of the creating publishers (Just, Future, Record, ...) fail with.
struct CreateTestError: Error, Equatable, Codable {
    var code = 0
}

/// What a ``CreateManualPublisher``'s subscription was asked to do.
enum CreateUpstreamEvent: Equatable {
    case request(Subscribers.Demand)
    case cancel
}

/// A subscription that records requests and cancels, for checking what an operator asks upstream.
final class CreateManualSubscription: Subscription, Sendable {
    private let recorded = Mutex<[CreateUpstreamEvent]>([])

    /// Everything asked so far, in order.
    var events: [CreateUpstreamEvent] { recorded.withLock { $0 } }

    func request(_ demand: Subscribers.Demand) {
        recorded.withLock { $0.append(.request(demand)) }
    }

    func cancel() {
        recorded.withLock { $0.append(.cancel) }
    }
}

/// A publisher driven by hand: it gives its one subscriber a ``CreateManualSubscription`` and lets
/// the test send values (seeing the demand returned) and completions directly, even after cancel.
final class CreateManualPublisher<Output, Failure: Error>: Publisher {
    let subscription = CreateManualSubscription()
    private(set) var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let subscriber = AnySubscriber(subscriber)
        self.subscriber = subscriber
        subscriber.receive(subscription: subscription)
    }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
    }
}
