extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// predicate.
    ///
    /// As soon as the closure returns `false`, the publisher cancels upstream and publishes `false`,
    /// then finishes. If upstream finishes and every element passed (or there were none), it publishes
    /// `true`. If upstream fails first, the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = [2, 4, 6, 8].publisher
    ///     .allSatisfy { $0.isMultiple(of: 2) }
    ///     .sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
    ///   continue, or `false` to cancel the upstream and complete.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
    ///   elements pass a given predicate.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// error-throwing predicate.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Zero: Error {}
    /// let cancellable = [3, 2, 0, 5].publisher
    ///     .tryAllSatisfy { value in
    ///         if value == 0 { throw Zero() }
    ///         return value > 0
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed: \(error)") } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: Zero()
    /// ```
    ///
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
    ///   continue, or `false` to cancel the upstream and complete. The closure may throw an error, in
    ///   which case the publisher cancels the upstream publisher and fails with the thrown error.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
    ///   elements pass a given predicate.
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received elements
    /// pass a given predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether every element passed.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and finish.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes whether all received elements pass a given predicate.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: A closure that evaluates each received element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a checking subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = AllSatisfyLogic(predicate: predicate, description: "AllSatisfy")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received elements
    /// pass a given error-throwing predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether every element passed.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and finish. The closure may
        /// throw, in which case the publisher cancels the upstream publisher and fails with the thrown
        /// error.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes whether all received elements pass a given
        /// error-throwing predicate.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: An error-throwing closure that evaluates each received element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a checking subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = AllSatisfyLogic(predicate: predicate, description: "TryAllSatisfy")
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `allSatisfy(_:)` and `tryAllSatisfy(_:)`: stops at the first element the predicate
/// rejects. A throwing predicate's error fails the stream.
@usableFromInline
struct AllSatisfyLogic<Predicate: OperatorPredicate>: ReduceLogic {
    @usableFromInline
    let predicate: Predicate

    @usableFromInline
    let description: String

    @usableFromInline
    var satisfied = true

    @inlinable
    init(predicate: Predicate, description: String) {
        self.predicate = predicate
        self.description = description
    }

    @inlinable
    mutating func accumulate(_ input: Predicate.Input) -> ReduceStep<Predicate.Failure> {
        do {
            if try predicate(input) { return .continue }
        } catch {
            return .fail(error)
        }
        satisfied = false
        return .finish
    }

    @inlinable
    var result: Bool? { satisfied }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }
}
