extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    ///
    /// The publisher waits for upstream to finish, then publishes the smallest element; when several
    /// elements are equally small, the first of them. If upstream finishes without elements, the
    /// publisher finishes without publishing. If upstream fails, the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = [1, -1, 10, 5].publisher
    ///     .min()
    ///     .sink { print($0) }
    /// // Prints: -1
    /// ```
    ///
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    ///
    /// The publisher waits for upstream to finish, then publishes the largest element; when several
    /// elements are equally large, the first of them. If upstream finishes without elements, the
    /// publisher finishes without publishing. If upstream fails, the failure is passed on.
    ///
    /// ```swift
    /// let cancellable = [1, -1, 10, 5].publisher
    ///     .max()
    ///     .sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided ordering
    /// closure.
    ///
    /// The closure is called as `areInIncreasingOrder(next, smallestSoFar)`; an element replaces the
    /// smallest so far only when the closure returns `true`.
    ///
    /// ```swift
    /// let cancellable = ["apple", "fig", "banana"].publisher
    ///     .min { $0.count < $1.count }
    ///     .sink { print($0) }
    /// // Prints: fig
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true` if
    ///   they're in increasing order.
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing ordering closure.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Incomparable: Error {}
    /// let cancellable = [3, 1, 2].publisher
    ///     .tryMin { lhs, rhs in
    ///         if lhs == rhs { throw Incomparable() }
    ///         return lhs < rhs
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // 1
    /// // finished
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns
    ///   `true` if they're in increasing order.
    /// - Returns: A publisher that publishes the minimum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided ordering
    /// closure.
    ///
    /// The closure is called as `areInIncreasingOrder(largestSoFar, next)`; an element replaces the
    /// largest so far only when the closure returns `true`.
    ///
    /// ```swift
    /// let cancellable = ["apple", "fig", "banana"].publisher
    ///     .max { $0.count < $1.count }
    ///     .sink { print($0) }
    /// // Prints: banana
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns `true` if
    ///   they're in increasing order.
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing ordering closure.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Incomparable: Error {}
    /// let cancellable = [3, 1, 3].publisher
    ///     .tryMax { lhs, rhs in
    ///         if lhs == rhs { throw Incomparable() }
    ///         return lhs < rhs
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed: \(error)") } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: Incomparable()
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and returns
    ///   `true` if they're in increasing order.
    /// - Returns: A publisher that publishes the maximum value received from the upstream publisher,
    ///   after the upstream publisher finishes.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item.
    ///
    /// It keeps the greatest element according to ``areInIncreasingOrder`` and publishes it when
    /// upstream finishes; `min` operators build it with the closure's arguments swapped.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns `true` if they're in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that republishes the greatest element of the upstream publisher, as
        /// ordered by a closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - areInIncreasingOrder: A closure that receives two elements and returns `true` if they're
        ///     in increasing order.
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the subscriber through a comparing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                ReduceProducer(downstream: subscriber, logic: Logic(areInIncreasingOrder: areInIncreasingOrder)))
        }
    }

    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item, and fails if the ordering logic throws an
    /// error.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns `true` if they're in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the greatest element of the upstream publisher, as
        /// ordered by an error-throwing closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - areInIncreasingOrder: A throwing closure that receives two elements and returns `true`
        ///     if they're in increasing order.
        @inlinable
        public init(
            upstream: Upstream,
            areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the subscriber through a comparing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                ReduceProducer(downstream: subscriber, logic: Logic(areInIncreasingOrder: areInIncreasingOrder)))
        }
    }
}

extension Publishers.Comparison {
    /// Keeps the greatest element so far.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        @usableFromInline
        var greatest: Upstream.Output?

        @inlinable
        init(areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            if let current = greatest, !areInIncreasingOrder(current, input) { return .continue }
            greatest = input
            return .continue
        }

        @inlinable
        var result: Upstream.Output? { greatest }

        @usableFromInline
        var description: String { "Comparison" }
    }
}

extension Publishers.TryComparison {
    /// Keeps the greatest element so far, or fails with what the ordering closure throws.
    @usableFromInline
    struct Logic: ReduceLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        @usableFromInline
        var greatest: Upstream.Output?

        @inlinable
        init(areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        mutating func accumulate(_ input: Upstream.Output) -> ReduceStep<any Error> {
            if let current = greatest {
                do {
                    guard try areInIncreasingOrder(current, input) else { return .continue }
                } catch {
                    return .fail(error)
                }
            }
            greatest = input
            return .continue
        }

        @inlinable
        var result: Upstream.Output? { greatest }

        @usableFromInline
        var description: String { "TryComparison" }
    }
}
