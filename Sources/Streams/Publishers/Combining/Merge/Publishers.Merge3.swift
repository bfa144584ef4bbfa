extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers.
    ///
    /// It shares downstream demand among its upstream publishers: each is asked for one value at a
    /// time, or for unlimited values once downstream asks for unlimited values.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output
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

        /// Creates a publisher created by applying the merge function to three upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = MergeInner(downstream: subscriber, count: 3)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0))
            b.subscribe(inner.upstreamSide(1))
            c.subscribe(inner.upstreamSide(2))
        }

        /// Merges this publisher's upstream publishers with another publisher.
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that merges all four upstream publishers.
        @inlinable
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge4<A, B, C, P>
        where
            C.Failure == P.Failure, C.Output == P.Output
        {
            Publishers.Merge4(a, b, c, other)
        }

        /// Merges this publisher's upstream publishers with two other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        /// - Returns: A publisher that merges all five upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge5<A, B, C, Z, Y>
        where
            C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output
        {
            Publishers.Merge5(a, b, c, z, y)
        }

        /// Merges this publisher's upstream publishers with three other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        /// - Returns: A publisher that merges all six upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge6<A, B, C, Z, Y, X>
        where
            C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge6(a, b, c, z, y, x)
        }

        /// Merges this publisher's upstream publishers with four other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        /// - Returns: A publisher that merges all seven upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
        where
            C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output
        {
            Publishers.Merge7(a, b, c, z, y, x, w)
        }

        /// Merges this publisher's upstream publishers with five other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        /// - Returns: A publisher that merges all eight upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
        where
            C.Failure == Z.Failure, C.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output,
            W.Failure == V.Failure, W.Output == V.Output
        {
            Publishers.Merge8(a, b, c, z, y, x, w, v)
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Merge3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
