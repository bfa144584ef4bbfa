extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any returned optional
    /// that has a value.
    ///
    /// Each `nil` result is replaced by a request for one more element from upstream. When the
    /// closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct EmptyInput: Error {}
    ///
    /// let cancellable = ["1", "two", "3", "", "5"].publisher
    ///     .tryCompactMap { text -> Int? in
    ///         guard !text.isEmpty else { throw EmptyInput() }
    ///         return Int(text)
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 1
    /// // 3
    /// // error: EmptyInput()
    /// ```
    ///
    /// - Parameter transform: An error-throwing closure that receives a value and returns an optional
    ///   value.
    /// - Returns: Any non-`nil` optional results of calling the supplied closure.
    @inlinable
    public func tryCompactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure with
    /// each received element.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives values from the upstream publisher and returns
        /// optional values.
        ///
        /// If this closure throws an error, the publisher fails.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes all non-`nil` results of calling an error-throwing
        /// closure with each received element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: An error-throwing closure that receives values from the upstream publisher
        ///     and returns optional values.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber through an unwrapping subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(transform: transform)))
        }
    }
}

extension Publishers.TryCompactMap {
    /// Returns a single publisher that applies this publisher's transform, then the error-throwing
    /// `transform` to each non-`nil` result.
    ///
    /// - Parameter transform: An error-throwing closure that receives a value and returns an optional
    ///   value.
    /// - Returns: A publisher that publishes the non-`nil` results of both closures.
    @inlinable
    public func compactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }

    /// Sends each non-`nil` result; a throw ends the stream.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let transform: (Upstream.Output) throws -> Output?

        @inlinable
        init(transform: @escaping (Upstream.Output) throws -> Output?) {
            self.transform = transform
        }

        @inlinable
        func process(_ input: Upstream.Output) -> FilterStep<Output, any Error> {
            do {
                guard let output = try transform(input) else { return .skip }
                return .send(output)
            } catch {
                return .fail(error)
            }
        }

        @usableFromInline
        var description: String { "TryCompactMap" }

        @inlinable
        static var conduct: FilterConduct { .strict }
    }
}
