extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// Use it to observe a stream — logging, counting, debugging — without changing what flows
    /// through it. Each closure runs before the event is passed on; `receiveRequest` sees both the
    /// demand downstream requests through its subscription and any nonzero demand it returns from
    /// receiving a value. After the stream completes or is cancelled, no closure runs again.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .handleEvents(
    ///         receiveSubscription: { _ in print("subscribed") },
    ///         receiveOutput: { print("output \($0)") },
    ///         receiveCompletion: { print("completion \($0)") },
    ///         receiveCancel: { print("cancelled") },
    ///         receiveRequest: { print("request \($0)") })
    ///     .sink { _ in }
    /// // Prints:
    /// // subscribed
    /// // request unlimited
    /// // output 1
    /// // output 2
    /// // completion finished
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure that executes when the publisher receives the subscription
    ///     from the upstream publisher.
    ///   - receiveOutput: A closure that executes when the publisher receives a value from the
    ///     upstream publisher.
    ///   - receiveCompletion: A closure that executes when the upstream publisher finishes normally
    ///     or terminates with an error.
    ///   - receiveCancel: A closure that executes when the downstream receiver cancels publishing.
    ///   - receiveRequest: A closure that executes when the publisher receives a request for more
    ///     elements.
    /// - Returns: A publisher that performs the specified closures when publisher events occur.
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives the subscription from the upstream
        /// publisher.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// A closure that executes when the publisher receives a value from the upstream publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// A closure that executes when the upstream publisher finishes normally or terminates with an
        /// error.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?

        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that performs the specified closures when publisher events occur.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - receiveSubscription: A closure that executes when the publisher receives the
        ///     subscription from the upstream publisher.
        ///   - receiveOutput: A closure that executes when the publisher receives a value from the
        ///     upstream publisher.
        ///   - receiveCompletion: A closure that executes when the upstream publisher finishes
        ///     normally or terminates with an error.
        ///   - receiveCancel: A closure that executes when the downstream receiver cancels publishing.
        ///   - receiveRequest: A closure that executes when the publisher receives a request for more
        ///     elements.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches the subscriber through a subscriber that reports every event to the closures.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(events: self, downstream: subscriber))
        }
    }
}

extension Publishers.HandleEvents {
    /// The subscriber and subscription that call the closures, then pass each event on.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`, like every closure below; all are dropped when the stream ends.
        @usableFromInline
        var receiveSubscription: ((any Subscription) -> Void)?

        @usableFromInline
        var receiveOutput: ((Upstream.Output) -> Void)?

        @usableFromInline
        var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        @usableFromInline
        var receiveCancel: (() -> Void)?

        @usableFromInline
        var receiveRequest: ((Subscribers.Demand) -> Void)?

        @inlinable
        init(events: Publishers.HandleEvents<Upstream>, downstream: Downstream) {
            self.downstream = downstream
            receiveSubscription = events.receiveSubscription
            receiveOutput = events.receiveOutput
            receiveCompletion = events.receiveCompletion
            receiveCancel = events.receiveCancel
            receiveRequest = events.receiveRequest
        }

        /// Ends the stream: drops the closures and returns what it held, to release outside the lock.
        /// Call with the lock held.
        @inlinable
        func terminateLocked() -> [Any?] {
            let released: [Any?] = [
                receiveSubscription, receiveOutput, receiveCompletion, receiveCancel, receiveRequest,
            ]
            receiveSubscription = nil
            receiveOutput = nil
            receiveCompletion = nil
            receiveCancel = nil
            receiveRequest = nil
            status = .terminal
            return released
        }

        // Like Combine, every event reaches its closure and is passed on whatever the state; the
        // state only decides whether upstream is kept, asked for more, or cancelled. Closures are
        // always called outside the lock.

        /// Reports every subscription, even one that is refused because another already arrived.
        @inlinable
        func receive(subscription: any Subscription) {
            lock.withLock { receiveSubscription }?(subscription)
            let accepted = lock.withLock { status.accept(subscription) }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.withLock { receiveOutput }?(input)
            let more = downstream.receive(input)
            if more > 0, let onRequest = lock.withLock({ receiveRequest }) {
                onRequest(more)
            }
            return more
        }

        /// Reports and passes on every completion; the first one also releases the closures.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.withLock { receiveCompletion }?(completion)
            let released = lock.withLock { terminateLocked() }
            withExtendedLifetime(released) {}
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { receiveRequest }?(demand)
            lock.withLock { status.subscription }?.request(demand)
        }

        /// Reports every cancellation; once subscribed it also cancels upstream and releases the
        /// closures.
        @inlinable
        func cancel() {
            lock.withLock { receiveCancel }?()
            let ended = lock.withLock { () -> ((any Subscription)?, [Any?]) in
                guard let subscription = status.subscription else { return (nil, []) }
                return (subscription, terminateLocked())
            }
            ended.0?.cancel()
            withExtendedLifetime(ended) {}
        }

        @usableFromInline
        var description: String { "HandleEvents" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
