extension Publisher {
    /// Subscribes to two additional publishers and publishes a tuple upon receiving output from any of
    /// the publishers.
    ///
    /// Nothing is published until each upstream publisher has sent at least one value. From then on,
    /// each value from any of them publishes a tuple of the latest value from each. Demand, buffering
    /// and completion work as in ``Publisher/combineLatest(_:)``: every request goes to all three
    /// upstream publishers, the combined publisher finishes once all three have finished and fails as
    /// soon as one fails.
    ///
    /// ```swift
    /// let pub1 = PassthroughSubject<Int, Never>()
    /// let pub2 = PassthroughSubject<Int, Never>()
    /// let pub3 = PassthroughSubject<Int, Never>()
    /// let cancellable = pub1
    ///     .combineLatest(pub2, pub3)
    ///     .sink { print("Result: \($0).") }
    /// pub1.send(1)
    /// pub2.send(2)
    /// pub3.send(9)
    /// pub1.send(3)
    /// // Prints:
    /// // Result: (1, 2, 9).
    /// // Result: (3, 2, 9).
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    /// - Returns: A publisher that receives and combines elements from this publisher and two other
    ///   publishers.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q>
    where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Subscribes to two additional publishers and invokes a closure upon receiving output from any of
    /// the publishers.
    ///
    /// Works as `combineLatest(_:_:)`, publishing what `transform` makes of the
    /// latest values instead of their tuple.
    ///
    /// ```swift
    /// let pub1 = PassthroughSubject<Int, Never>()
    /// let pub2 = PassthroughSubject<Int, Never>()
    /// let pub3 = PassthroughSubject<Int, Never>()
    /// let cancellable = pub1
    ///     .combineLatest(pub2, pub3) { $0 * $1 * $2 }
    ///     .sink { print("Result: \($0).") }
    /// pub1.send(2)
    /// pub2.send(2)
    /// pub3.send(10)
    /// pub1.send(9)
    /// // Prints:
    /// // Result: 40.
    /// // Result: 180.
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - transform: A closure that receives the most-recent value from each publisher and returns
    ///     a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this publisher and two other
    ///   publishers.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest3(self, publisher1, publisher2)) {
            transform($0.0, $0.1, $0.2)
        }
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from three publishers.
    ///
    /// See `combineLatest(_:_:)` for how values, demand and completion flow.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// The kind of values published by this publisher: a tuple of the upstream publishers' outputs.
        public typealias Output = (A.Output, B.Output, C.Output)

        /// The kind of errors this publisher might publish: the one its upstream publishers share.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A

        /// The second upstream publisher.
        public let b: B

        /// The third upstream publisher.
        public let c: C

        /// Creates a publisher that receives and combines the latest elements from three publishers.
        ///
        /// - Parameters:
        ///   - a: The first upstream publisher.
        ///   - b: The second upstream publisher.
        ///   - c: The third upstream publisher.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to each upstream publisher in turn, then gives the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = CombineLatestInner<CombineLatest3Buffers<A.Output, B.Output, C.Output>, S>(
                downstream: subscriber, count: 3)
            a.subscribe(inner.upstreamSide(0) { $0.a = $1 })
            b.subscribe(inner.upstreamSide(1) { $0.b = $1 })
            c.subscribe(inner.upstreamSide(2) { $0.c = $1 })
            inner.establish()
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.CombineLatest3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
