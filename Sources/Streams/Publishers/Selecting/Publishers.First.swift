extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// The publisher asks upstream for an unlimited number of elements; when the first arrives it
    /// cancels upstream, then publishes the element and finishes once downstream has asked for a value.
    /// If upstream finishes without elements, the publisher finishes without publishing.
    ///
    /// ```swift
    /// let cancellable = (-10...10).publisher
    ///     .first()
    ///     .sink { print($0) }
    /// // Prints: -10
    /// ```
    ///
    /// - Returns: A publisher that only publishes the first element of a stream.
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    public struct First<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of the upstream publisher, then
        /// finishes.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a subscriber that keeps the first element.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: Logic()))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publishers.First {
    /// Stops at the first element.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        var first: Upstream.Output?

        @inlinable
        init() {}

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            first = input
            return .finish
        }

        @inlinable
        var result: Upstream.Output? { first }

        @usableFromInline
        var description: String { "First" }
    }
}
