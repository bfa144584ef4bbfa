extension Publisher {
    /// Combines elements from two other publishers and delivers groups of elements as tuples.
    ///
    /// The returned publisher waits until all three publishers have emitted an event, then delivers
    /// the oldest unconsumed event from each publisher as a tuple to the subscriber. For example, if
    /// publisher `P1` emits elements `a` and `b`, and publisher `P2` emits elements `c` and `d`, and
    /// publisher `P3` emits the event `e`, the zip publisher emits the tuple `(a, c, e)`. It won't
    /// emit a tuple with elements `b` or `d` until `P3` emits another event.
    ///
    /// The zipped publisher finishes once an upstream publisher has finished and none of its elements
    /// waits for partners, cancelling the others; it fails as soon as any upstream publisher fails.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip(["A", "B"].publisher, [true].publisher)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: (1, "A", true)
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher.
    ///   - publisher2: A third publisher.
    /// - Returns: A publisher that emits groups of elements from the upstream publishers as tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P,
        _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines elements from two other publishers and delivers a transformed output.
    ///
    /// The returned publisher waits until all three publishers have emitted an event, then passes the
    /// oldest unconsumed event from each publisher to `transform` and publishes its result. It
    /// finishes and fails as the zipped publisher without a transform does.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip([10, 20].publisher, [100, 200].publisher) { $0 + $1 + $2 }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 111 222
    /// ```
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher.
    ///   - publisher2: A third publisher.
    ///   - transform: A closure that receives the oldest unconsumed value from each publisher and
    ///     returns a new value to publish.
    /// - Returns: A publisher that uses `transform` to combine groups of elements from the upstream
    ///   publishers.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to three upstream publishers.
    ///
    /// It links the elements of its upstream publishers in groups of three: the first element of
    /// each, then the second of each, and so on. An element waits in a queue until its partners
    /// arrive. Each request from downstream is passed on to every upstream publisher.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// The kind of values published by this publisher: triples of the upstream publishers' values.
        public typealias Output = (A.Output, B.Output, C.Output)

        /// The kind of errors this publisher might publish: its upstream publishers' common failure.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// A third publisher to zip.
        public let c: C

        /// Creates a publisher that applies the zip function to three upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to zip.
        ///   - b: A second publisher to zip.
        ///   - c: A third publisher to zip.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = ZipInner<S, ZipBuffers3<A.Output, B.Output, C.Output>>(downstream: subscriber)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0) { $0.a.append($1) })
            b.subscribe(inner.upstreamSide(1) { $0.b.append($1) })
            c.subscribe(inner.upstreamSide(2) { $0.c.append($1) })
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Zip3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
