extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    ///
    /// It republishes each value as soon as any upstream publisher sends it, as downstream demand
    /// allows, sharing that demand among its upstream publishers: each is asked for one value at a
    /// time, or for unlimited values once downstream asks for unlimited values. It finishes once every
    /// upstream publisher has finished (with no upstream publishers, as soon as downstream asks for a
    /// value), and fails with the first failure, cancelling the other upstream publishers.
    ///
    /// ```swift
    /// let cancellable = Publishers.MergeMany([1, 2].publisher, [3].publisher, [4, 5].publisher)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 1 2 3 4 5
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: its upstream publishers' output.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: its upstream publishers' failure.
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher created by applying the merge function to an arbitrary number of
        /// upstream publishers.
        ///
        /// - Parameter upstream: A variadic parameter containing zero or more publishers to merge.
        @inlinable
        public init(_ upstream: Upstream...) {
            self.publishers = upstream
        }

        /// Creates a publisher created by applying the merge function to a sequence of upstream
        /// publishers.
        ///
        /// - Parameter upstream: A sequence containing zero or more publishers to merge.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            self.publishers = Array(upstream)
        }

        /// Gives the subscriber its subscription, then subscribes to each upstream publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = MergeInner(downstream: subscriber, count: publishers.count)
            subscriber.receive(subscription: inner)
            for (index, publisher) in publishers.enumerated() {
                publisher.subscribe(inner.upstreamSide(index))
            }
        }

        /// Combines elements from this publisher with those from another publisher of the same type,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameter other: Another publisher of this publisher's upstream type.
        /// - Returns: A publisher that merges this publisher's upstream publishers and `other`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publishers.MergeMany: Sendable where Upstream: Sendable {}
