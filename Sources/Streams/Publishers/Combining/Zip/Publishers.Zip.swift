extension Publisher {
    /// Combines elements from another publisher and delivers pairs of elements as tuples.
    ///
    /// The returned publisher waits until both publishers have emitted an event, then delivers the
    /// oldest unconsumed event from each publisher together as a tuple to the subscriber. For example,
    /// if publisher `P1` emits elements `a` and `b`, and publisher `P2` emits event `c`, the zip
    /// publisher emits the tuple `(a, c)`. It won't emit a tuple with event `b` until `P2` emits
    /// another event.
    ///
    /// The zipped publisher finishes once an upstream publisher has finished and none of its elements
    /// waits for a partner, since no further tuple is possible; it cancels the other upstream
    /// publisher. It fails as soon as either upstream publisher fails, cancelling both.
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let letters = PassthroughSubject<String, Never>()
    /// let cancellable = numbers.zip(letters)
    ///     .sink { print("\($0)\($1)", terminator: " ") }
    /// numbers.send(1)
    /// numbers.send(2)
    /// letters.send("A")
    /// letters.send("B")
    /// letters.send("C")
    /// numbers.send(3)
    /// // Prints: 1A 2B 3C
    /// ```
    ///
    /// - Parameter other: Another publisher.
    /// - Returns: A publisher that emits pairs of elements from the upstream publishers as tuples.
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Combines elements from another publisher and delivers a transformed output.
    ///
    /// The returned publisher waits until both publishers have emitted an event, then passes the
    /// oldest unconsumed event from each publisher to `transform` and publishes its result. It
    /// finishes and fails as ``zip(_:)`` does.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .zip([10, 20].publisher) { $0 * $1 }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 10 40
    /// ```
    ///
    /// - Parameters:
    ///   - other: Another publisher.
    ///   - transform: A closure that receives the oldest unconsumed value from each publisher and
    ///     returns a new value to publish.
    /// - Returns: A publisher that uses `transform` to combine pairs of elements from the upstream
    ///   publishers.
    @inlinable
    public func zip<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
        Publishers.Map(upstream: Publishers.Zip(self, other)) { transform($0.0, $0.1) }
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// It links the elements of its upstream publishers pairwise, like a zip fastener: the first
    /// element of one with the first of the other, and so on. An element waits in a queue until its
    /// partner arrives. Each request from downstream is passed on to both upstream publishers.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// The kind of values published by this publisher: pairs of the upstream publishers' values.
        public typealias Output = (A.Output, B.Output)

        /// The kind of errors this publisher might publish: its upstream publishers' common failure.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// Another publisher to zip.
        public let b: B

        /// Creates a publisher that applies the zip function to two upstream publishers.
        ///
        /// - Parameters:
        ///   - a: A publisher to zip.
        ///   - b: Another publisher to zip.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = ZipInner<S, ZipBuffers2<A.Output, B.Output>>(downstream: subscriber)
            subscriber.receive(subscription: inner)
            a.subscribe(inner.upstreamSide(0) { $0.a.append($1) })
            b.subscribe(inner.upstreamSide(1) { $0.b.append($1) })
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Zip: Sendable where A: Sendable, B: Sendable {}
