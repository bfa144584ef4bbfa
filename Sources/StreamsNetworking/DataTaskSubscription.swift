import Foundation
import Streams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a data task's completion handler calls, without knowing the subscriber's type.
protocol DataTaskFinishing: AnyObject, Sendable {
    /// The task ended with these results.
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// The subscription of a ``Foundation/URLSession/DataTaskPublisher``: it starts the data task on the
/// first request, hands its result to the subscriber, and cancels it when cancelled.
///
/// Its state is one value under a lock: waiting for the first request, running a task, or ended
/// (delivered, failed or cancelled). The subscriber is called with the lock released, from the
/// session's delegate queue, and let go of once the subscription ends.
// @unchecked Sendable: `state`, the only variable, is guarded by `lock`.
final class DataTaskSubscription<Downstream: Subscriber>: @unchecked Sendable, Subscription, DataTaskFinishing,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    /// Where the subscription stands.
    enum State {
        /// Subscribed, no value asked for yet.
        case waiting(Downstream)
        /// The task is running; its result goes to the subscriber.
        case running(Downstream, URLSessionDataTask)
        /// Delivered, failed or cancelled: nothing more happens.
        case ended
    }

    private let publisher: URLSession.DataTaskPublisher
    private let lock = NSLock()
    private var state: State

    init(publisher: URLSession.DataTaskPublisher, downstream: Downstream) {
        self.publisher = publisher
        state = .waiting(downstream)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let finishing: any DataTaskFinishing = self
        let task = lock.withLock { () -> URLSessionDataTask? in
            guard case .waiting(let downstream) = state else { return nil }
            let task = publisher.session.dataTask(with: publisher.request) { [weak finishing] data, response, error in
                finishing?.finish(data: data, response: response, error: error)
            }
            state = .running(downstream, task)
            return task
        }
        task?.resume()
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionDataTask? in
            defer { state = .ended }
            if case .running(_, let task) = state { return task }
            return nil
        }
        task?.cancel()
    }

    /// The task ended: delivers its result, unless the subscription was cancelled meanwhile.
    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let downstream = lock.withLock { () -> Downstream? in
            defer { state = .ended }
            if case .running(let downstream, _) = state { return downstream }
            return nil
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }

    var description: String { "DataTaskPublisher" }

    var customMirror: Mirror {
        Mirror(self, children: ["request": publisher.request as Any])
    }

    var playgroundDescription: Any { description }
}
