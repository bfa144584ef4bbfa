public import Foundation
public import Streams

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that loads the contents of a URL with a data task.
    ///
    /// Each subscription starts a task of its own once its subscriber first asks for a value, and
    /// publishes the data and the response, then finishes; a transport error fails it with a
    /// `URLError`. An HTTP error status is not a failure, as in Combine: check the response's
    /// `statusCode`.
    ///
    /// ```swift
    /// import StreamsNetworking
    ///
    /// let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com")!)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count, "bytes") })
    /// ```
    ///
    /// - Parameter url: The URL to load.
    /// - Returns: A publisher of the data and the response.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that performs a URL request with a data task.
    ///
    /// Each subscription starts a task of its own once its subscriber first asks for a value, and
    /// publishes the data and the response, then finishes; a transport error fails it with a
    /// `URLError`. An HTTP error status is not a failure, as in Combine.
    ///
    /// - Parameter request: The request to perform.
    /// - Returns: A publisher of the data and the response.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the results of a URL session data task.
    ///
    /// Each subscription starts one task, on its subscriber's first request for a value; cancelling
    /// the subscription cancels the task. It publishes one value, the data and the response, then
    /// finishes, or fails with the task's `URLError`.
    public struct DataTaskPublisher: Publisher, Sendable {
        /// The kind of values published by this publisher: the data and the response.
        public typealias Output = (data: Data, response: URLResponse)

        /// The kind of errors this publisher might publish: the task's.
        public typealias Failure = URLError

        /// The request the task performs.
        public let request: URLRequest

        /// The session that creates the task.
        public let session: URLSession

        /// Creates a publisher that performs `request` with a data task of `session`.
        ///
        /// - Parameters:
        ///   - request: The request to perform.
        ///   - session: The session that creates the task.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Gives the subscriber a subscription that starts the task on its first request.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(publisher: self, downstream: subscriber))
        }
    }
}
