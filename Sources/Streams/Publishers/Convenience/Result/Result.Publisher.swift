extension Result {
    /// A publisher that publishes an output to each subscriber exactly once then finishes, or fails
    /// immediately without producing any elements.
    ///
    /// If `result` is `.success`, the publisher waits until it receives a request for at least one
    /// value before sending the output. If `result` is `.failure`, the publisher sends the failure
    /// immediately upon subscription.
    ///
    /// In contrast with ``Just``, a `Result.Publisher` can terminate with an error instead of sending
    /// a value. In contrast with `Optional.Publisher`, it always sends one value unless it fails.
    ///
    /// ```swift
    /// struct Oops: Error {}
    /// let good = Result<Int, Oops>.success(7).publisher
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // 7
    /// // finished
    /// let bad = Result<Int, Oops>.failure(Oops()).publisher
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: failure(Oops())
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The kind of values published by this publisher: the result's success type.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher that delivers the specified result.
        ///
        /// If the result is `.success`, the publisher sends the output to each subscriber and
        /// finishes normally. If the result is `.failure`, the publisher fails immediately with the
        /// error.
        ///
        /// - Parameter result: The result to deliver to each subscriber.
        @inlinable
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to all subscribers and finishes
        /// normally.
        ///
        /// - Parameter output: The output to deliver to each subscriber.
        @inlinable
        public init(_ output: Output) {
            result = .success(output)
        }

        /// Creates a publisher that immediately terminates upon subscription with the given failure.
        ///
        /// - Parameter failure: The failure to send when terminating.
        @inlinable
        public init(_ failure: Failure) {
            result = .failure(failure)
        }

        /// Gives the subscriber a subscription that delivers the value on its first request, or the
        /// empty subscription followed by the failure.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Once"))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }

    /// A publisher that publishes this result once to each subscriber: its value followed by
    /// `.finished`, or its failure.
    ///
    /// ```swift
    /// let cancellable = Result<Int, Never>.success(3).publisher.sink { print($0) }
    /// // Prints: 3
    /// ```
    @inlinable
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Result.Publisher: Equatable where Output: Equatable, Failure: Equatable {}

extension Result.Publisher: Sendable where Output: Sendable {}
