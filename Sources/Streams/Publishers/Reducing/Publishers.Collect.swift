extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream
    /// publisher finishes.
    ///
    /// The operator asks upstream for an unlimited number of elements and keeps every one of them, so
    /// use it only with publishers that finish after a bounded number of elements. If upstream fails,
    /// the collection is discarded and the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = (0...4).publisher
    ///     .collect()
    ///     .sink { print($0) }
    /// // Prints: [0, 1, 2, 3, 4]
    /// ```
    ///
    /// - Returns: A publisher that collects all received items and emits them as one array upon
    ///   completion.
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that buffers every element it receives and publishes them as one array when the
    /// upstream publisher finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: an array of the upstream's elements.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of the upstream publisher into an array.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a collecting subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: Logic()))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publishers.Collect {
    /// Appends every element to the array it publishes.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        var elements: [Upstream.Output] = []

        @inlinable
        init() {}

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            elements.append(input)
            return .continue
        }

        @inlinable
        var result: [Upstream.Output]? { elements }

        @usableFromInline
        var description: String { "Collect" }

        /// Combine shows only how many elements the array holds.
        @inlinable
        static func mirrorChildren(
            downstream: Any, result: [Upstream.Output]?, initial: [Upstream.Output]?, status: Any
        ) -> [Mirror.Child] {
            [("count", result?.count ?? 0)]
        }
    }
}
