extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    ///
    /// Every request downstream makes is multiplied by `count` on its way upstream: asking for one
    /// array asks upstream for `count` elements. When upstream finishes, a partly filled array is
    /// published before the completion; when upstream fails, it is discarded.
    ///
    /// ```swift
    /// let cancellable = (0...10).publisher
    ///     .collect(5)
    ///     .sink { print($0) }
    /// // Prints:
    /// // [0, 1, 2, 3, 4]
    /// // [5, 6, 7, 8, 9]
    /// // [10]
    /// ```
    ///
    /// - Parameter count: The maximum number of received elements to buffer before publishing; it
    ///   must be greater than zero.
    /// - Returns: A publisher that collects up to the specified number of elements, and then publishes
    ///   them as an array.
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that buffers a maximum number of items.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: arrays of the upstream's elements.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that buffers a maximum number of items.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - count: The maximum number of received elements to buffer before publishing.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches the subscriber through a buffering subscriber to the upstream publisher.
        ///
        /// A count below one is a programmer error and stops execution here.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            precondition(count > 0, "collect(_:) needs a count greater than zero, got \(count)")
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    /// The subscriber and subscription that fills arrays of `count` elements.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let count: Int

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: the elements of the array being filled.
        @usableFromInline
        var buffer: [Upstream.Output] = []

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let full = lock.withLock { () -> [Upstream.Output]? in
                guard status.isSubscribed else { return nil }
                // Room for a full array, but never more than a few pages up front: a count as large as
                // `Int.max` asks for every value, not for that much memory.
                if buffer.isEmpty { buffer.reserveCapacity(Swift.min(count, 1_024)) }
                buffer.append(input)
                guard buffer.count == count else { return nil }
                defer { buffer = [] }
                return buffer
            }
            guard let full else { return .none }
            return downstream.receive(full) * count
        }

        /// Passes on every completion, as Combine does, even one that arrives after a cancellation or a
        /// first completion. A `.finished` first publishes the partly filled array, if any; a failure
        /// discards it.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let remainder = lock.withLock { () -> [Upstream.Output] in
                status = .terminal
                defer { buffer = [] }
                return buffer
            }
            if case .finished = completion, !remainder.isEmpty {
                _ = downstream.receive(remainder)
            }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            lock.withLock { status.subscription }?.request(demand * count)
        }

        /// Cancels upstream and drops the partly filled array. Before upstream's subscription arrives,
        /// it does nothing, as in Combine: the subscription, when it comes, is still taken.
        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                guard status.isSubscribed else { return nil }
                buffer = []
                return status.terminate()
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "CollectByCount" }

        @usableFromInline
        var customMirror: Mirror {
            let (subscription, buffer) = lock.withLock { (status.subscription, self.buffer) }
            return Mirror(
                self,
                children: [
                    "downstream": downstream,
                    "upstreamSubscription": subscription as Any,
                    "buffer": buffer,
                    "count": count,
                ])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
