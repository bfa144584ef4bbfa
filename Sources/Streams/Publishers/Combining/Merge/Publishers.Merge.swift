extension Publisher {
    /// Combines elements from this publisher with those from another publisher, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// ```swift
    /// let odds = PassthroughSubject<Int, Never>()
    /// let evens = PassthroughSubject<Int, Never>()
    /// let cancellable = odds.merge(with: evens)
    ///     .sink { print($0, terminator: " ") }
    /// odds.send(1)
    /// evens.send(2)
    /// odds.send(3)
    /// // Prints: 1 2 3
    /// ```
    ///
    /// - Parameter other: Another publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<P: Publisher>(
        with other: P
    ) -> Publishers.Merge<Self, P>
    where
        Failure == P.Failure, Output == P.Output
    {
        Publishers.Merge(self, other)
    }

    /// Combines elements from this publisher with those from two other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// ```swift
    /// let cancellable = Just(1)
    ///     .merge(with: Just(2), Just(3))
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 1 2 3
    /// ```
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher>(
        with b: B, _ c: C
    ) -> Publishers.Merge3<Self, B, C>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output
    {
        Publishers.Merge3(self, b, c)
    }

    /// Combines elements from this publisher with those from three other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output
    {
        Publishers.Merge4(self, b, c, d)
    }

    /// Combines elements from this publisher with those from four other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Combines elements from this publisher with those from five other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    ///   - f: A sixth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Combines elements from this publisher with those from six other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    ///   - f: A sixth publisher.
    ///   - g: A seventh publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output,
        F.Failure == G.Failure, F.Output == G.Output
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Combines elements from this publisher with those from seven other publishers, delivering an interleaved
    /// sequence of elements.
    ///
    /// The merged publisher republishes each value as soon as any upstream publisher sends it, as
    /// downstream demand allows. It finishes once every upstream publisher has finished, and fails
    /// with the first failure, cancelling the other upstream publishers.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    ///   - f: A sixth publisher.
    ///   - g: A seventh publisher.
    ///   - h: An eighth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        Failure == B.Failure, Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output,
        F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }

    /// Combines elements from this publisher with those from another publisher of the same type,
    /// delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.merge(with: [3].publisher)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 1 2 3
    /// ```
    ///
    /// - Parameter other: Another publisher of this publisher's type.
    /// - Returns: A publisher that emits an event when either upstream publisher emits an event.
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    ///
    /// It shares downstream demand among its upstream publishers: each is asked for one value at a
    /// time, or for unlimited values once downstream asks for unlimited values.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output
    {
        /// The kind of values published by this publisher: its upstream publishers' common output.
        public typealias Output = A.Output

        /// The kind of errors this publisher might publish: its upstream publishers' common failure.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// Creates a publisher created by applying the merge function to two upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = MergeInner(downstream: subscriber, count: 2)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0))
            b.subscribe(inner.upstreamSide(1))
        }

        /// Merges this publisher's upstream publishers with another publisher.
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that merges all three upstream publishers.
        @inlinable
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge3<A, B, P>
        where
            B.Failure == P.Failure, B.Output == P.Output
        {
            Publishers.Merge3(a, b, other)
        }

        /// Merges this publisher's upstream publishers with two other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        /// - Returns: A publisher that merges all four upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge4<A, B, Z, Y>
        where
            B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output
        {
            Publishers.Merge4(a, b, z, y)
        }

        /// Merges this publisher's upstream publishers with three other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        /// - Returns: A publisher that merges all five upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge5<A, B, Z, Y, X>
        where
            B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output
        {
            Publishers.Merge5(a, b, z, y, x)
        }

        /// Merges this publisher's upstream publishers with four other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        /// - Returns: A publisher that merges all six upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        ) -> Publishers.Merge6<A, B, Z, Y, X, W>
        where
            B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output
        {
            Publishers.Merge6(a, b, z, y, x, w)
        }

        /// Merges this publisher's upstream publishers with five other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        /// - Returns: A publisher that merges all seven upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
        where
            B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output,
            W.Failure == V.Failure, W.Output == V.Output
        {
            Publishers.Merge7(a, b, z, y, x, w, v)
        }

        /// Merges this publisher's upstream publishers with six other publishers.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        ///   - u: And another publisher.
        /// - Returns: A publisher that merges all eight upstream publishers.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
        ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
        where
            B.Failure == Z.Failure, B.Output == Z.Output,
            Z.Failure == Y.Failure, Z.Output == Y.Output,
            Y.Failure == X.Failure, Y.Output == X.Output,
            X.Failure == W.Failure, X.Output == W.Output,
            W.Failure == V.Failure, W.Output == V.Output,
            V.Failure == U.Failure, V.Output == U.Output
        {
            Publishers.Merge8(a, b, z, y, x, w, v, u)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Merge: Sendable where A: Sendable, B: Sendable {}
