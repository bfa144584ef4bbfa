extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes.
    ///
    /// When the closure first returns `true`, the publisher cancels upstream, then publishes that
    /// element and finishes. If upstream finishes without a match, the publisher finishes without
    /// publishing.
    ///
    /// ```swift
    /// let cancellable = (-10...10).publisher
    ///     .first { $0 > 4 }
    ///     .sink { print($0) }
    /// // Prints: 5
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean
    ///   value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the first element of a stream that satisfies the
    ///   predicate.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy a throwing predicate closure, then finishes.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Unexpected: Error {}
    /// let cancellable = [3, 7, 0, 12].publisher
    ///     .tryFirst { value in
    ///         if value == 0 { throw Unexpected() }
    ///         return value > 5
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // 7
    /// // finished
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean
    ///   value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the first element of a stream that satisfies the
    ///   predicate.
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
    ///
    /// Its subscription describes itself as `TryFirst`, as Combine's does.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the first element of the upstream publisher to satisfy a
        /// predicate.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a searching subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            // Combine's own subscription for `first(where:)` calls itself `TryFirst`.
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = FirstWhereLogic(predicate: predicate, description: "TryFirst")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a throwing predicate
    /// closure.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the first element of the upstream publisher to satisfy an
        /// error-throwing predicate.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a searching subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = FirstWhereLogic(predicate: predicate, description: "TryFirstWhere")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `first(where:)` and `tryFirst(where:)`: stops at the first element the predicate
/// accepts. A throwing predicate's error fails the stream.
@usableFromInline
struct FirstWhereLogic<Predicate: OperatorPredicate>: ReduceLogic {
    @usableFromInline
    let predicate: Predicate

    @usableFromInline
    let description: String

    @usableFromInline
    var match: Predicate.Input?

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
        match = input
        return .finish
    }

    @inlinable
    var result: Predicate.Input? { match }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }
}
