extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements.
    ///
    /// Each omitted element is replaced by a request for one more from upstream. Once the closure
    /// returns `false`, it is never called again.
    ///
    /// ```swift
    /// let cancellable = [-40, -10, 0, 10, 0, 100].publisher
    ///     .drop { $0 <= 0 }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 10 0 100
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean
    ///   value indicating whether to drop the element from the publisher's output.
    /// - Returns: A publisher that skips over elements until the provided closure returns `false`.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns false,
    /// before republishing all remaining elements.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Unexpected: Error {}
    /// let cancellable = [1, 2, 3, 4, 5, 6, -1, 7, 8, 9, 10].publisher
    ///     .tryDrop { value in
    ///         if value == 0 { throw Unexpected() }
    ///         return value < 4
    ///     }
    ///     .sink { _ in } receiveValue: { print($0, terminator: " ") }
    /// // Prints: 4 5 6 -1 7 8 9 10
    /// ```
    ///
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a Boolean
    ///   value indicating whether to drop the element from the publisher's output.
    /// - Returns: A publisher that skips over elements until the provided closure returns `false`, and
    ///   then republishes all remaining elements. If the predicate closure throws, the publisher fails
    ///   with an error.
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns
    /// false.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that omits elements from an upstream publisher until a given closure
        /// returns false.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that indicates whether to drop the element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a dropping subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = PlainPredicate<Upstream.Output, Failure>(self.predicate)
            let logic = DropWhileLogic(predicate: predicate, description: "DropWhile")
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given error-throwing closure
    /// returns false.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that omits elements from an upstream publisher until a given
        /// error-throwing closure returns false.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that indicates whether to drop the element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a dropping subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let predicate = ThrowingPredicate<Upstream.Output, Upstream.Failure>(self.predicate)
            let logic = DropWhileLogic(predicate: predicate, description: "TryDropWhile")
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `drop(while:)` and `tryDrop(while:)`: drops elements until the predicate first rejects
/// one, then lets everything through. A throwing predicate's error fails the stream. The predicate,
/// and what it captures, is let go of as soon as it has rejected an element: it is never called again.
@usableFromInline
struct DropWhileLogic<Predicate: OperatorPredicate>: FilterLogic {
    /// The predicate while dropping; `nil` once it has rejected an element.
    @usableFromInline
    var predicate: Predicate?

    @usableFromInline
    let description: String

    @inlinable
    init(predicate: Predicate, description: String) {
        self.predicate = predicate
        self.description = description
    }

    @inlinable
    mutating func process(_ input: Predicate.Input) -> FilterStep<Predicate.Input, Predicate.Failure> {
        if let predicate {
            do {
                if try predicate(input) { return .skip }
            } catch {
                self.predicate = nil
                return .fail(error)
            }
            self.predicate = nil
        }
        return .send(input)
    }

    @inlinable
    func convert(_ failure: Predicate.UpstreamFailure) -> Predicate.Failure { Predicate.convert(failure) }

    @inlinable
    static var conduct: FilterConduct { .dropWhile }
}
