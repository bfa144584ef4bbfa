extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// The first element the closure rejects is not republished: the publisher cancels upstream and
    /// finishes instead.
    ///
    /// ```swift
    /// let cancellable = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].publisher
    ///     .prefix { $0 < 5 }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 0 1 2 3 4
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value that indicates whether publishing should continue.
    /// - Returns: A publisher that passes through elements until the predicate indicates publishing
    ///   should finish.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while an error-throwing predicate closure indicates publishing should
    /// continue.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct OutOfRange: Error {}
    /// let cancellable = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].publisher
    ///     .tryPrefix { value in
    ///         if value == 3 { throw OutOfRange() }
    ///         return value < 5
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed: \(error)") } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 0
    /// // 1
    /// // 2
    /// // Failed: OutOfRange()
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a Boolean
    ///   value indicating whether publishing should continue.
    /// - Returns: A publisher that passes through elements until the predicate throws or indicates
    ///   publishing should finish.
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing should
    /// continue.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements while a predicate closure indicates publishing
        /// should continue.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether publishing should continue.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a prefixing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = PrefixWhileLogic(predicate: predicate, description: "PrefixWhile")
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements while an error-throwing predicate closure
        /// indicates publishing should continue.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether publishing should
        ///     continue.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a prefixing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = PrefixWhileLogic(predicate: predicate, description: "TryPrefixWhile")
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `prefix(while:)` and `tryPrefix(while:)`: lets elements through until the predicate
/// rejects one. A throwing predicate's error fails the stream.
@usableFromInline
struct PrefixWhileLogic<Predicate: OperatorPredicate>: FilterLogic {
    @usableFromInline
    let predicate: Predicate

    @usableFromInline
    let description: String

    @inlinable
    init(predicate: Predicate, description: String) {
        self.predicate = predicate
        self.description = description
    }

    @inlinable
    func process(_ input: Predicate.Input) -> FilterStep<Predicate.Input, Predicate.Failure> {
        do {
            return try predicate(input) ? .send(input) : .finish
        } catch {
            return .fail(error)
        }
    }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }

    @inlinable
    static var conduct: FilterConduct { .strict }
}
