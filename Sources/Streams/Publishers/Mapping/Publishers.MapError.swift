extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    ///
    /// Values and demand pass through unchanged; only the failure is transformed.
    ///
    /// ```swift
    /// struct ParseError: Error { let text: String }
    /// struct DisplayError: Error { let message: String }
    ///
    /// let cancellable = Fail<Int, ParseError>(error: ParseError(text: "x"))
    ///     .mapError { DisplayError(message: "Can't read \($0.text)") }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print(error.message) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Can't read x
    /// ```
    ///
    /// - Parameter transform: A closure that takes the upstream failure as a parameter and returns a
    ///   new error for the publisher to terminate with.
    /// - Returns: A publisher that replaces any upstream failure with a new error produced by the
    ///   `transform` closure.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform)
    }
}

extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    ///
    /// Values, demand and cancellation pass through unchanged.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that converts any failure from the upstream publisher into a new error.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - map: The closure that converts the upstream failure into a new error.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            transform = map
        }

        /// Creates a publisher that converts any failure from the upstream publisher into a new error.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The closure that converts the upstream failure into a new error.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber through an error-converting subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    /// The subscriber that converts the failure on its way downstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let transform: (Upstream.Failure) -> Downstream.Failure

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Downstream.Failure) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion.mapFailure(transform))
        }

        @usableFromInline
        var description: String { "MapError" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
