extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// The publisher asks upstream for the elements it drops on top of whatever downstream asks for:
    /// its first request upstream is downstream's demand so far plus `count`. A negative count is a
    /// programmer error, reported when a subscriber attaches.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher
    ///     .dropFirst(8)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 9 10
    /// ```
    ///
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A publisher that doesn't republish the first `count` elements.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits a specified number of elements before republishing later
        /// elements.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - count: The number of elements to drop.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Gives the subscriber its subscription, then attaches to the upstream publisher.
        ///
        /// The subscriber may request before upstream's subscription arrives; those requests are
        /// added to the first request made upstream. A negative count stops execution here.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            precondition(count >= 0, "dropFirst(_:) needs a non-negative count, got \(count)")
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
    /// The subscriber and subscription that swallows the first `count` elements.
    ///
    /// As in Combine, it is reusable: a completion forgets the upstream subscription, and a later one
    /// is accepted and asked for the demand gathered in between plus the elements still to drop.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        /// How many elements are still to drop. Changed only by `receive(_:)`, which a publisher
        /// never calls concurrently with itself or with `receive(subscription:)`.
        @usableFromInline
        var remaining: Int

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`: the current upstream subscription, if any.
        @usableFromInline
        var upstreamSubscription: (any Subscription)?

        /// Guarded by `lock`: what downstream requested while there was no upstream subscription.
        @usableFromInline
        var pendingDemand = Subscribers.Demand.none

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            remaining = count
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let demand = lock.withLock { () -> Subscribers.Demand? in
                guard upstreamSubscription == nil else { return nil }
                upstreamSubscription = subscription
                defer { pendingDemand = .none }
                return pendingDemand + remaining
            }
            guard let demand else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        /// Drops or passes on the value whatever the state, without a lock, as Combine does.
        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if remaining > 0 {
                remaining -= 1
                return .none
            }
            return downstream.receive(input)
        }

        /// Forgets the upstream subscription and passes every completion on, as Combine does.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.withLock { upstreamSubscription = nil }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let subscription = lock.withLock { () -> (any Subscription)? in
                if upstreamSubscription == nil { pendingDemand += demand }
                return upstreamSubscription
            }
            subscription?.request(demand)
        }

        /// Cancels and forgets the current upstream subscription; with none it does nothing.
        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                defer { upstreamSubscription = nil }
                return upstreamSubscription
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Drop" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
