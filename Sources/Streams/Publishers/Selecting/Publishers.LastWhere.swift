extension Publisher {
    /// Publishes the last element of a stream that satisfies a predicate closure, after upstream
    /// finishes.
    ///
    /// ```swift
    /// let cancellable = (-10...10).publisher
    ///     .last { $0 < 6 }
    ///     .sink { print($0) }
    /// // Prints: 5
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream that satisfies an error-throwing predicate closure,
    /// after the stream finishes.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Unexpected: Error {}
    /// let cancellable = [3, 7, 0, 12].publisher
    ///     .tryLast { value in
    ///         if value == 0 { throw Unexpected() }
    ///         return value > 5
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed: \(error)") } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: Unexpected()
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the last element satisfying the given predicate.
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies a predicate closure.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the last element of the upstream publisher to satisfy a
        /// predicate, once it finishes.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a subscriber that keeps the latest match.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = LastWhereLogic(predicate: predicate, description: "LastWhere")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies an error-throwing predicate closure.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the last element of the upstream publisher to satisfy an
        /// error-throwing predicate, once it finishes.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a subscriber that keeps the latest match.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = LastWhereLogic(predicate: predicate, description: "TryLastWhere")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `last(where:)` and `tryLast(where:)`: keeps the latest element the predicate accepts.
/// A throwing predicate's error fails the stream.
@usableFromInline
struct LastWhereLogic<Predicate: OperatorPredicate>: ReduceLogic {
    @usableFromInline
    let predicate: Predicate

    @usableFromInline
    let description: String

    @usableFromInline
    var latest: Predicate.Input?

    @inlinable
    init(predicate: Predicate, description: String) {
        self.predicate = predicate
        self.description = description
    }

    @inlinable
    mutating func accumulate(_ input: Predicate.Input) -> ReduceStep<Predicate.Failure> {
        do {
            if try predicate(input) { latest = input }
        } catch {
            return .fail(error)
        }
        return .continue
    }

    @inlinable
    var result: Predicate.Input? { latest }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }
}
