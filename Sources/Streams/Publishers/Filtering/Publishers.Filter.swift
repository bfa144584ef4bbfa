extension Publisher {
    /// Republishes all elements that match a provided closure.
    ///
    /// Each element the closure rejects is replaced by a request for one more from upstream, so the
    /// downstream's demand counts only the elements it receives.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4].publisher
    ///     .filter { $0.isMultiple(of: 2) }
    ///     .sink { print($0) }
    /// // Prints:
    /// // 2
    /// // 4
    /// ```
    ///
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value indicating
    ///   whether to republish the element.
    /// - Returns: A publisher that republishes all elements that satisfy the closure.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes all elements that match a provided closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - isIncluded: A closure that indicates whether to republish an element.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches the subscriber through a filtering subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

extension Publishers.Filter {
    /// Returns a single publisher that keeps the elements both closures accept.
    ///
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value indicating
    ///   whether to republish the element.
    /// - Returns: A publisher that applies this publisher's test, then `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// Returns a single publisher that keeps the elements that both this publisher's test and the
    /// error-throwing `isIncluded` accept.
    ///
    /// `isIncluded` is called only for elements this publisher's test accepts. When it throws, the
    /// publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Unexpected: Error {}
    ///
    /// let cancellable = [1, 2, 3, 4, -6].publisher
    ///     .filter { $0.isMultiple(of: 2) }
    ///     .tryFilter { value in // One Publishers.TryFilter over the sequence.
    ///         guard value >= 0 else { throw Unexpected() }
    ///         return value > 2
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 4
    /// // error: Unexpected()
    /// ```
    ///
    /// - Parameter isIncluded: An error-throwing closure that takes one element and returns a Boolean
    ///   value indicating whether to republish the element.
    /// - Returns: A publisher that applies this publisher's test, then `isIncluded`.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// The subscriber that drops rejected elements and asks upstream for a replacement.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let isIncluded: (Upstream.Output) -> Bool

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.downstream = downstream
            self.isIncluded = isIncluded
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            isIncluded(input) ? downstream.receive(input) : .max(1)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "Filter" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
