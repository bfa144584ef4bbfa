extension Publisher {
    /// Republishes elements until another publisher emits an element.
    ///
    /// After the second publisher publishes an element, the publisher returned by this method
    /// cancels upstream and finishes. The second publisher is asked for one element; if it completes
    /// (or fails) without one, upstream elements keep passing through.
    ///
    /// ```swift
    /// let upstream = PassthroughSubject<Int, Never>()
    /// let stop = PassthroughSubject<Void, Never>()
    /// let cancellable = upstream
    ///     .prefix(untilOutputFrom: stop)
    ///     .sink(
    ///         receiveCompletion: { print($0) },
    ///         receiveValue: { print($0) })
    ///
    /// upstream.send(1)
    /// upstream.send(2)
    /// stop.send()
    /// upstream.send(3)
    /// // Prints:
    /// // 1
    /// // 2
    /// // finished
    /// ```
    ///
    /// - Parameter publisher: A second publisher.
    /// - Returns: A publisher that republishes elements until the second publisher publishes an
    ///   element.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's. The other publisher's
        /// failures are not passed on.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - other: Another publisher, the first output from which causes this publisher to finish.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to the other publisher, then to the upstream publisher; the subscriber receives
        /// its subscription when upstream's arrives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            let termination = Inner.Termination(receiver: inner)
            inner.state.termination = termination
            other.subscribe(termination)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publishers.PrefixUntilOutput {
    /// The subscriber to the upstream, and the subscription downstream sees.
    ///
    /// Its state, a ``PrefixUntilOutputState`` under `lock`, decides. The upstream and the other
    /// publisher may call it from different threads at once; everything that goes downstream goes
    /// through the state's turn, so that downstream is never called from two threads at once, and
    /// never with the lock held. As in Combine, it does not customize its description or reflection.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, NestingTurnDelivering
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state = PrefixUntilOutputState<Termination>()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        /// Accepts the first subscription, unless the stream has already ended, and hands this
        /// subscription downstream.
        @inlinable
        func receive(subscription: any Subscription) {
            let thread = ThreadIdentity.current
            guard let entry = lock.withLock({ state.receiveUpstream(subscription: subscription, thread: thread) })
            else {
                subscription.cancel()
                return
            }
            withTurn(entry, thread: thread) { downstream.receive(subscription: self) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            guard let entry = lock.withLock({ state.receiveUpstreamValue(thread: thread) }) else { return .none }
            return withTurn(entry, thread: thread) { downstream.receive(input) }
        }

        /// Cancels the other publisher's subscription, then passes the completion on if the stream
        /// was live.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (wasLive, other) = lock.withLock { state.upstreamDidComplete() }
            other?.cancel()
            if wasLive { sendCompletionDownstream { downstream.receive(completion: completion) } }
        }

        // MARK: Other publisher

        @usableFromInline
        func otherReceive(subscription: any Subscription) {
            if lock.withLock({ state.otherStatus.accept(subscription) }) {
                subscription.request(.max(1))
            } else {
                subscription.cancel()
            }
        }

        /// The first element cancels upstream and finishes, even before downstream has a
        /// subscription, as in Combine.
        @usableFromInline
        func otherReceive(_ input: Other.Output) -> Subscribers.Demand {
            guard let (upstream, termination) = lock.withLock({ state.otherDidSend() }) else { return .none }
            termination?.detach()
            upstream?.cancel()
            sendCompletionDownstream { downstream.receive(completion: .finished) }
            return .none
        }

        /// Without an element first, the other publisher's completion changes nothing downstream.
        @usableFromInline
        func otherReceive(completion: Subscribers.Completion<Other.Failure>) {
            lock.withLock { state.otherStatus = .terminal }
        }

        // MARK: Downstream

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { state.upstreamStatus.subscription }?.request(demand)
        }

        /// Cancels upstream, then the other publisher, and lets go of both.
        @usableFromInline
        func cancel() {
            let (upstream, other) = lock.withLock { state.cancel() }
            upstream?.cancel()
            other?.cancel()
        }
    }
}

extension Publishers.PrefixUntilOutput.Inner: OtherPublisherReceiver {
    @usableFromInline
    typealias OtherOutput = Other.Output

    @usableFromInline
    typealias OtherFailure = Other.Failure

    /// The subscriber to the other publisher.
    @usableFromInline
    typealias Termination = OtherSubscriber<Publishers.PrefixUntilOutput<Upstream, Other>.Inner<Downstream>>
}
