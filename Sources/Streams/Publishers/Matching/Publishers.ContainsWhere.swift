extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
    ///
    /// As soon as the closure returns `true`, the publisher cancels upstream and publishes `true`,
    /// then finishes. If upstream finishes without such an element, it publishes `false`.
    ///
    /// ```swift
    /// let cancellable = [-1, 5, 10, 5].publisher
    ///     .contains { $0 > 7 }
    ///     .sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value that indicates whether the element satisfies the closure's comparison logic.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a
    ///   matching value.
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
    /// closure.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Negative: Error {}
    /// let cancellable = [1, 2, -3, 4].publisher
    ///     .tryContains { value in
    ///         if value < 0 { throw Negative() }
    ///         return value == 4
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed: \(error)") } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: Negative()
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value that indicates whether the element satisfies the closure's comparison logic.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher emits a
    ///   matching value.
    @inlinable
    public func tryContains(
        where predicate: @escaping (Output) throws -> Bool
    ) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate
    /// closure.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether a match was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether the publisher should consider an element as a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that emits a Boolean value when it receives an element that satisfies a
        /// closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether an element is a match.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a searching subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = ContainsWhereLogic(predicate: predicate, description: "ContainsWhere")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing
    /// predicate closure.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether a match was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit a `true`
        /// element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that emits a Boolean value when it receives an element that satisfies an
        /// error-throwing closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether an element is a match.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a searching subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = ContainsWhereLogic(predicate: predicate, description: "TryContainsWhere")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `contains(where:)` and `tryContains(where:)`: stops at the first element the predicate
/// accepts. A throwing predicate's error fails the stream.
@usableFromInline
struct ContainsWhereLogic<Predicate: OperatorPredicate>: ReduceLogic {
    @usableFromInline
    let predicate: Predicate

    @usableFromInline
    let description: String

    @usableFromInline
    var found = false

    @inlinable
    init(predicate: Predicate, description: String) {
        self.predicate = predicate
        self.description = description
    }

    @inlinable
    mutating func accumulate(_ input: Predicate.Input) -> ReduceStep<Predicate.Failure> {
        do {
            guard try predicate(input) else { return .continue }
        } catch {
            return .fail(error)
        }
        found = true
        return .finish
    }

    @inlinable
    var result: Bool? { found }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }
}
