extension Publisher {
    /// Publishes the number of elements received from the upstream publisher.
    ///
    /// The count is published once, when upstream finishes. If upstream fails, the failure is passed on
    /// and no count is published.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .count()
    ///     .sink { print($0) }
    /// // Prints: 3
    /// ```
    ///
    /// - Returns: A publisher that consumes all elements until the upstream publisher finishes, then
    ///   emits a single value with the total number of elements received.
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream publisher.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the number of elements.
        public typealias Output = Int

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the number of elements received from the upstream
        /// publisher.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a counting subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: Logic()))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publishers.Count {
    /// Counts the elements.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        var count = 0

        @inlinable
        init() {}

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            count += 1
            return .continue
        }

        @inlinable
        var result: Int? { count }

        @usableFromInline
        var description: String { "Count" }
    }
}
