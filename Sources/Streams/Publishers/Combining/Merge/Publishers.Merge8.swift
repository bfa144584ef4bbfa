extension Publishers {
    /// A publisher created by applying the merge function to eight upstream publishers.
    ///
    /// It shares downstream demand among its upstream publishers: each is asked for one value at a
    /// time, or for unlimited values once downstream asks for unlimited values.
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output,
        F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
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

        /// A sixth publisher to merge.
        public let f: F

        /// A seventh publisher to merge.
        public let g: G

        /// An eighth publisher to merge.
        public let h: H

        /// Creates a publisher created by applying the merge function to eight upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        ///   - d: A fourth publisher to merge.
        ///   - e: A fifth publisher to merge.
        ///   - f: A sixth publisher to merge.
        ///   - g: A seventh publisher to merge.
        ///   - h: An eighth publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = MergeInner(downstream: subscriber, count: 8)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0))
            b.subscribe(inner.upstreamSide(1))
            c.subscribe(inner.upstreamSide(2))
            d.subscribe(inner.upstreamSide(3))
            e.subscribe(inner.upstreamSide(4))
            f.subscribe(inner.upstreamSide(5))
            g.subscribe(inner.upstreamSide(6))
            h.subscribe(inner.upstreamSide(7))
        }
    }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publishers.Merge8: Sendable
where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, F: Sendable, G: Sendable, H: Sendable {}
