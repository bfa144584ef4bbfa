extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the optional
    /// has a value.
    ///
    /// With a value, the publisher waits for the subscriber's first request, sends the value and
    /// finishes. With `nil`, it finishes immediately without sending anything. In contrast with
    /// ``Just``, which always produces a value, this publisher may finish without one.
    ///
    /// ```swift
    /// let numbers: [Int?] = [1, nil, 3]
    /// for number in numbers {
    ///     _ = number.publisher.sink(
    ///         receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// }
    /// // Prints:
    /// // 1
    /// // finished
    /// // finished
    /// // 3
    /// // finished
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The kind of values published by this publisher: the type the optional wraps.
        public typealias Output = Wrapped

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        /// The output to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if the
        /// optional doesn't have a value.
        ///
        /// - Parameter output: The result to deliver to each subscriber.
        @inlinable
        public init(_ output: Output?) {
            self.output = output
        }

        /// Gives the subscriber a subscription that delivers the value on its first request, or the
        /// empty subscription followed by `.finished` when there is no value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            guard let output else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Optional"))
        }
    }

    /// A publisher that publishes this optional's value once to each subscriber, then finishes; or
    /// only finishes, if the optional is `nil`.
    ///
    /// ```swift
    /// let name: String? = "Ada"
    /// let cancellable = name.publisher.sink { print($0) }
    /// // Prints: Ada
    /// ```
    @inlinable
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}

extension Optional.Publisher: Sendable where Wrapped: Sendable {}
