import Streams

/// A publisher that passes its upstream through unchanged and reports each event of each
/// subscription (the subscription, values, completion, cancellation) to `record`, for a
/// ``MarblePicture`` line.
struct MarbleTap<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let label: (Upstream.Output) -> String
    let record: (MarblePictureEvent) -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(MarbleTapSubscription(downstream: subscriber, label: label, record: record))
    }
}

/// One subscription through a ``MarbleTap``: the upstream's subscriber and the downstream's
/// subscription.
final class MarbleTapSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    // @unchecked: `upstream` is guarded by `lock`; the rest is immutable.
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let label: (Input) -> String
    private let record: (MarblePictureEvent) -> Void
    private let lock = Lock()
    private var upstream: (any Subscription)?

    init(downstream: Downstream, label: @escaping (Input) -> String, record: @escaping (MarblePictureEvent) -> Void) {
        self.downstream = downstream
        self.label = label
        self.record = record
    }

    func receive(subscription: any Subscription) {
        lock.withLock { upstream = subscription }
        record(.subscribed)
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(label(input)))
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { upstream = nil }
        switch completion {
        case .finished: record(.finished)
        case .failure(let error): record(.failed(String(describing: error)))
        }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        guard let upstream = lock.withLock({ self.upstream.take() }) else { return }
        record(.cancelled)
        upstream.cancel()
    }
}
