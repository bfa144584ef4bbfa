import Dispatch
import Streams

/// The inner publishers the flatMap workload makes, one per outer value (a request): 1 to 6
/// ``InnerItem``s, then finished.
enum InnerPublishers {
    /// How an inner publisher sends its values.
    enum Kind {
        /// All at once, on the thread that subscribes, before `subscribe` returns.
        case immediate
        /// From a concurrent dispatch queue, `subscribe(on:)` it.
        case onQueue
        /// One value from a task: an `async` `Future`, deferred until subscribed.
        case task

        /// The kind used for `request`: half immediate, a quarter each of the others.
        static func mixed(for request: Stamp) -> Kind {
            switch (request.sequence &+ request.sender) & 3 {
            case 0, 1: .immediate
            case 2: .onQueue
            default: .task
            }
        }
    }

    /// The queue the `onQueue` inner publishers send from.
    static let queue = DispatchQueue(label: "soak flatMap inner", attributes: .concurrent)

    /// The inner publisher for `request`, of `kind`, reporting its subscription and end to `gauge`.
    static func make(for request: Stamp, kind: Kind, gauge: InnerPublisherGauge) -> AnyPublisher<InnerItem, Never> {
        let inner: AnyPublisher<InnerItem, Never>
        switch kind {
        case .immediate, .onQueue:
            let length = InnerItem.length(for: request)
            let items = (0..<length).lazy.map { InnerItem(request: request, index: $0, length: length) }
            inner =
                kind == .immediate
                ? items.publisher.eraseToAnyPublisher()
                : items.publisher.subscribe(on: queue).eraseToAnyPublisher()
        case .task:
            let item = InnerItem(request: request, index: 0, length: 1)
            inner = Deferred { Future<InnerItem, Never> { () async in item } }.eraseToAnyPublisher()
        }
        return
            inner
            .handleEvents(
                receiveSubscription: { _ in gauge.started() },
                receiveCompletion: { _ in gauge.ended() },
                receiveCancel: { gauge.ended() }
            )
            .eraseToAnyPublisher()
    }
}
