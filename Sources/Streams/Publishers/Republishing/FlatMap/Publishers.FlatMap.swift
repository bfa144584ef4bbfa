extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum number
    /// of publishers you specify.
    ///
    /// Each upstream element is turned into a publisher with `transform`, and the values of all those
    /// publishers are republished, one at a time, as downstream demand allows. At most
    /// `maxPublishers` of them are subscribed to at once: this publisher asks upstream for that many
    /// elements, and for one more each time one of them finishes. It finishes when upstream and every
    /// publisher it produced have finished, and fails with the first failure. Upstream's failure
    /// cancels the new publishers; a new publisher's failure cancels the other new publishers and,
    /// as in Combine, leaves upstream uncancelled.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .flatMap(maxPublishers: .max(1)) { n in [n, n * 10].publisher }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 1 10 2 20 3 30
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     ``Subscribers/Demand/unlimited`` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher that
    ///     produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of
    ///   that element's type.
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into a new publisher that cannot fail, up
    /// to a maximum number of publishers you specify.
    ///
    /// The new publishers are given this publisher's failure type.
    ///
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     ``Subscribers/Demand/unlimited`` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher that
    ///     produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of
    ///   that element's type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into a new publisher, up
    /// to a maximum number of publishers you specify.
    ///
    /// This publisher takes on the new publishers' failure type.
    ///
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     ``Subscribers/Demand/unlimited`` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher that
    ///     produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of
    ///   that element's type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements from an upstream publisher that cannot fail into a new publisher that
    /// cannot fail either, up to a maximum number of publishers you specify.
    ///
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     ``Subscribers/Demand/unlimited`` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher that
    ///     produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a publisher of
    ///   that element's type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values published by this publisher: the new publishers'.
        public typealias Output = NewPublisher.Output

        /// The kind of errors this publisher might publish: the upstream's, which the new publishers
        /// share.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand

        /// A closure that takes an element as a parameter and returns a publisher that produces
        /// elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new
        /// publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - maxPublishers: The maximum number of concurrent publisher subscriptions. As in Combine,
        ///     it is asked of upstream as it is, even when it is ``Subscribers/Demand/none``.
        ///   - transform: A closure that takes an element as a parameter and returns a publisher that
        ///     produces elements of that type.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Gives the subscriber its subscription, then subscribes to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = Inner(downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}
