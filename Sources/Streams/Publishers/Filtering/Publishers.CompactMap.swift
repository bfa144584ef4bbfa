extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a
    /// value.
    ///
    /// Each `nil` result is replaced by a request for one more element from upstream, so the
    /// downstream's demand counts only the elements it receives.
    ///
    /// ```swift
    /// let cancellable = ["1", "two", "3"].publisher
    ///     .compactMap { Int($0) }
    ///     .sink { print($0) }
    /// // Prints:
    /// // 1
    /// // 3
    /// ```
    ///
    /// - Parameter transform: A closure that receives a value and returns an optional value.
    /// - Returns: Any non-`nil` optional results of calling the supplied closure.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each received
    /// element.
    ///
    /// Demand, completion and cancellation pass through; a `nil` result asks upstream for one more.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes all non-`nil` results of calling a closure with each
        /// received element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: A closure that receives values from the upstream publisher and returns
        ///     optional values.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber through an unwrapping subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.CompactMap {
    /// Returns a single publisher that applies this publisher's transform, then `transform` to each
    /// non-`nil` result.
    ///
    /// ```swift
    /// let cancellable = ["4", "x", "7"].publisher
    ///     .compactMap { Int($0) }
    ///     .compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil } // One Publishers.CompactMap.
    ///     .sink { print($0) }
    /// // Prints: 2
    /// ```
    ///
    /// - Parameter transform: A closure that receives a value and returns an optional value.
    /// - Returns: A publisher that publishes the non-`nil` results of both closures.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Returns a single publisher that applies this publisher's transform, then `transform` to each
    /// non-`nil` result.
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element.
    /// - Returns: A publisher that publishes the transformed non-`nil` results.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }

    /// The subscriber that unwraps each result on its way downstream and asks upstream for a
    /// replacement when there is none.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let transform: (Upstream.Output) -> Output?

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let output = transform(input) else { return .max(1) }
            return downstream.receive(output)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "CompactMap" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
