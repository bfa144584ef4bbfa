extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers.
    ///
    /// It shares downstream demand among its upstream publishers: each is asked for one value at a
    /// time, or for unlimited values once downstream asks for unlimited values.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output
    {
        /// The kind of values published by this publisher: its upstream publishers' common output.
        public typealias Output = A.Output

        /// The kind of errors this publisher might publish: its upstream publishers' common failure.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// A third publisher to merge.
        public let c: C

        /// A fourth publisher to merge.
        public let d: D

        /// A fifth publisher to merge.
        public let e: E

        /// Creates a publisher created by applying the merge function to five upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        ///   - d: A fourth publisher to merge.
        ///   - e: A fifth publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = MergeInner(downstream: subscriber, count: 5)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0))
            b.subscribe(inner.upstreamSide(1))
            c.subscribe(inner.upstreamSide(2))
            d.subscribe(inner.upstreamSide(3))
            e.subscribe(inner.upstreamSide(4))
        }

        /// Merges this publisher's upstream publishers with another publisher.
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that merges all six upstream publishers.
        @inlinable
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge6<A, B, C, D, E, P>
        where
            E.Failure == P.Failure, E.Output == P.Output
        {
            Publishers.Merge6(a, b, c, d, e, other)
        }

        /// Merges this publisher's upstream publishers with two other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        /// - Returns: A publisher that merges all seven upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
        where
            E.Failure == Z.Failure, E.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output
        {
            Publishers.Merge7(a, b, c, d, e, z, y)
        }

        /// Merges this publisher's upstream publishers with three other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        /// - Returns: A publisher that merges all eight upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
        where
            E.Failure == Z.Failure, E.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge8(a, b, c, d, e, z, y, x)
        }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers.Merge5: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable {}
