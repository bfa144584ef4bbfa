extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .map { $0 * 2 }
    ///     .sink { print($0) }
    /// // Prints:
    /// // 2
    /// // 4
    /// // 6
    /// ```
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element.
    /// - Returns: A publisher that uses the provided closure to map elements from the upstream
    ///   publisher to new elements that it then publishes.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    ///
    /// Demand, completion and cancellation pass through unchanged.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms all elements from the upstream publisher with a
        /// provided closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The closure that transforms elements from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber through a transforming subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Returns a single publisher that applies both transforms, one after the other.
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element.
    /// - Returns: A publisher that applies this publisher's transform, then `transform`.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }

    /// Returns a single publisher that applies this publisher's transform, then the error-throwing
    /// `transform`.
    ///
    /// ```swift
    /// struct TooLarge: Error {}
    ///
    /// let cancellable = [1, 2, 3].publisher
    ///     .map { $0 * 10 }
    ///     .tryMap { value -> Int in // One Publishers.TryMap over the sequence.
    ///         guard value < 30 else { throw TooLarge() }
    ///         return value + 1
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 11
    /// // 21
    /// // error: TooLarge()
    /// ```
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: A publisher that applies both transforms, one after the other.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }

    /// The subscriber that applies the transform on its way downstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let transform: (Upstream.Output) -> Output

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "Map" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
