extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// The publisher asks upstream for an unlimited number of elements, keeps the latest, and publishes
    /// it when upstream finishes. If upstream finishes without elements, the publisher finishes without
    /// publishing; if upstream fails, the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = (-10...10).publisher
    ///     .last()
    ///     .sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Returns: A publisher that only publishes the last element of a stream.
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

extension Publishers {
    /// A publisher that waits until after the stream finishes, and then publishes the last element of
    /// the stream.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of the upstream publisher once it
        /// finishes.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a subscriber that keeps the latest element.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: Logic()))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publishers.Last {
    /// Keeps the latest element.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        var latest: Upstream.Output?

        @inlinable
        init() {}

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            latest = input
            return .continue
        }

        @inlinable
        var result: Upstream.Output? { latest }

        @usableFromInline
        var description: String { "Last" }
    }
}
