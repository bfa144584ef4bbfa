extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    ///
    /// As soon as an equal element arrives, the publisher cancels upstream and publishes `true`, then
    /// finishes. If upstream finishes without producing such an element, it publishes `false`. If
    /// upstream fails first, the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = [-1, 5, 10, 5].publisher
    ///     .contains(5)
    ///     .sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter output: An element to match against.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a
    ///   matching value.
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specified element from its upstream
    /// publisher.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// The kind of values published by this publisher: whether the element was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The element to match in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that emits a Boolean value when it receives a specific element from its
        /// upstream publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element to match in the upstream publisher.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a searching subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: Logic(wanted: output)))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publishers.Contains {
    /// Stops at the first element equal to the wanted one.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let wanted: Upstream.Output

        @usableFromInline
        var found = false

        @inlinable
        init(wanted: Upstream.Output) {
            self.wanted = wanted
        }

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            guard input == wanted else { return .continue }
            found = true
            return .finish
        }

        @inlinable
        var result: Bool? { found }

        @usableFromInline
        var description: String { "Contains" }
    }
}
