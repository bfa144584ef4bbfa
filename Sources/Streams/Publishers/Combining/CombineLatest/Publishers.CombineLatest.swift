extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from either
    /// publisher.
    ///
    /// Nothing is published until each upstream publisher has sent at least one value. From then on,
    /// each value from either publisher publishes a tuple of the latest value from each.
    ///
    /// Every request from downstream is passed on to *both* upstream publishers, and the combined
    /// publisher still sends no more than downstream asked for: a value that arrives without demand
    /// only replaces its publisher's latest value (a buffer of one per upstream). The combined
    /// publisher finishes once both upstream publishers have finished, so one that never sends a value
    /// keeps it from finishing with values; it fails as soon as either fails, cancelling the other.
    ///
    /// ```swift
    /// let pub1 = PassthroughSubject<Int, Never>()
    /// let pub2 = PassthroughSubject<Int, Never>()
    /// let cancellable = pub1
    ///     .combineLatest(pub2)
    ///     .sink { print("Result: \($0).") }
    /// pub1.send(1)
    /// pub1.send(2)
    /// pub2.send(2)
    /// pub1.send(3)
    /// pub2.send(22)
    /// // Prints:
    /// // Result: (2, 2).
    /// // Result: (3, 2).
    /// // Result: (3, 22).
    /// ```
    ///
    /// - Parameter other: Another publisher to combine with this one.
    /// - Returns: A publisher that receives and combines elements from this and another publisher.
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output from either
    /// publisher.
    ///
    /// Works as ``Publisher/combineLatest(_:)``, publishing what `transform` makes of the latest
    /// values instead of their tuple.
    ///
    /// ```swift
    /// let pub1 = PassthroughSubject<Int, Never>()
    /// let pub2 = PassthroughSubject<Int, Never>()
    /// let cancellable = pub1
    ///     .combineLatest(pub2) { $0 * $1 }
    ///     .sink { print("Result: \($0).") }
    /// pub1.send(2)
    /// pub2.send(3)
    /// pub1.send(5)
    /// // Prints:
    /// // Result: 6.
    /// // Result: 15.
    /// ```
    ///
    /// - Parameters:
    ///   - other: Another publisher to combine with this one.
    ///   - transform: A closure that receives the most-recent value from each publisher and returns
    ///     a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this and another publisher.
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where Failure == P.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, other)) { transform($0.0, $0.1) }
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// See ``Publisher/combineLatest(_:)`` for how values, demand and completion flow.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// The kind of values published by this publisher: a tuple of the upstream publishers' outputs.
        public typealias Output = (A.Output, B.Output)

        /// The kind of errors this publisher might publish: the one its upstream publishers share.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A

        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that receives and combines the latest elements from two publishers.
        ///
        /// - Parameters:
        ///   - a: The first upstream publisher.
        ///   - b: The second upstream publisher.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to each upstream publisher in turn, then gives the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = CombineLatestInner<CombineLatest2Buffers<A.Output, B.Output>, S>(
                downstream: subscriber, count: 2)
            a.subscribe(inner.upstreamSide(0) { $0.a = $1 })
            b.subscribe(inner.upstreamSide(1) { $0.b = $1 })
            inner.establish()
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest: Sendable where A: Sendable, B: Sendable {}
