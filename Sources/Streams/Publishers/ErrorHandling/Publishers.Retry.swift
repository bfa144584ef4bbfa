extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of
    /// times you specify.
    ///
    /// After the upstream fails, this publisher subscribes to it again, up to `retries` times; the
    /// values downstream asked for and has not yet received are requested from each new subscription.
    /// If the last attempt fails too, the failure goes downstream. A negative count retries without
    /// limit.
    ///
    /// ```swift
    /// struct Flaky: Error {}
    /// var attempts = 0
    /// let cancellable = Deferred { () -> AnyPublisher<Int, Flaky> in
    ///         attempts += 1
    ///         return attempts < 3
    ///             ? Fail(error: Flaky()).eraseToAnyPublisher()
    ///             : Just(attempts).setFailureType(to: Flaky.self).eraseToAnyPublisher()
    ///     }
    ///     .retry(5)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // 3
    /// // finished
    /// ```
    ///
    /// - Parameter retries: The number of times to attempt to recreate the subscription.
    /// - Returns: A publisher that attempts to recreate its subscription to a failed upstream
    ///   publisher.
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform; `nil` (or a negative number) retries
        /// without limit.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream
        /// publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives its elements.
        ///   - retries: The maximum number of retry attempts to perform. If `nil`, this publisher
        ///     attempts to reconnect with the upstream publisher an unlimited number of times.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches the subscriber through a subscriber that resubscribes upstream on failure.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(upstream: upstream, retries: retries, downstream: subscriber))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publishers.Retry: Sendable where Upstream: Sendable {}

extension Publishers.Retry {
    /// The subscriber attached to each successive upstream subscription, and the one subscription
    /// downstream sees.
    ///
    /// As in Combine, it follows the stream until it ends rather than each upstream subscription: a
    /// value or a completion that arrives while a new subscription is on its way is still handled.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`: the subscriber; `nil` once the stream has ended, which releases it.
        @usableFromInline
        var downstream: Downstream?

        /// Guarded by `lock`: what to subscribe to again; `nil` once the stream has ended.
        @usableFromInline
        var upstream: Upstream?

        /// Guarded by `lock`: the live upstream subscription, if any.
        @usableFromInline
        var subscription: (any Subscription)?

        /// Guarded by `lock`: attempts left; `nil` or negative for no limit.
        @usableFromInline
        var remaining: Int?

        /// Guarded by `lock`: downstream's outstanding demand, carried over to each new subscription.
        @usableFromInline
        var demand = Subscribers.Demand.none

        /// Guarded by `lock`: whether downstream has received this subscription.
        @usableFromInline
        var sentSubscription = false

        /// Guarded by `lock`: a thread is inside `upstream.subscribe`; a failure arriving meanwhile
        /// asks it to subscribe again instead of recursing.
        @usableFromInline
        var isResubscribing = false

        /// Guarded by `lock`.
        @usableFromInline
        var needsResubscribe = false

        /// What to do with an upstream completion.
        @usableFromInline
        enum CompletionStep {
            /// The stream already ended, or a resubscription loop in progress takes care of it.
            case ignore
            /// Pass it on: the stream ends.
            case forward(Downstream, Upstream)
            /// Subscribe upstream again.
            case resubscribe
        }

        @inlinable
        init(upstream: Upstream, retries: Int?, downstream: Downstream) {
            self.upstream = upstream
            remaining = retries
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let accepted = lock.withLock { () -> (downstream: Downstream?, owed: Subscribers.Demand)? in
                guard let downstream, self.subscription == nil else { return nil }
                self.subscription = subscription
                let first = !sentSubscription
                sentSubscription = true
                return (first ? downstream : nil, demand)
            }
            guard let accepted else {
                subscription.cancel()
                return
            }
            accepted.downstream?.receive(subscription: self)
            if accepted.owed > 0 { subscription.request(accepted.owed) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let target = lock.withLock { () -> Downstream? in
                guard let downstream else { return nil }
                precondition(demand > 0, "Retry received a value from its upstream with no outstanding demand")
                demand -= 1
                return downstream
            }
            guard let target else { return .none }
            let more = target.receive(input)
            if more > 0 { requestMore(more) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let next = lock.withLock { () -> CompletionStep in
                guard downstream != nil else { return .ignore }
                subscription = nil
                if case .failure = completion, remaining != 0 {
                    if let left = remaining, left > 0 { remaining = left - 1 }
                    if isResubscribing {
                        needsResubscribe = true
                        return .ignore
                    }
                    isResubscribing = true
                    return .resubscribe
                }
                guard let downstream = downstream.take(), let upstream = upstream.take() else { return .ignore }
                return .forward(downstream, upstream)
            }
            switch next {
            case .ignore:
                return
            case .forward(let downstream, let upstream):
                downstream.receive(completion: completion)
                withExtendedLifetime(upstream) {}
            case .resubscribe:
                resubscribe()
            }
        }

        /// Subscribes upstream again, in a loop for failures that arrive during `subscribe`.
        @inlinable
        func resubscribe() {
            while true {
                let target = lock.withLock { () -> Upstream? in
                    needsResubscribe = false
                    guard let upstream else {
                        isResubscribing = false
                        return nil
                    }
                    return upstream
                }
                guard let target else { return }
                target.subscribe(self)
                let again = lock.withLock { () -> Bool in
                    guard needsResubscribe, downstream != nil else {
                        isResubscribing = false
                        return false
                    }
                    return true
                }
                if !again { return }
            }
        }

        /// Adds demand that downstream returned from a value and asks the live upstream for it.
        @inlinable
        func requestMore(_ more: Subscribers.Demand) {
            let live = lock.withLock { () -> (any Subscription)? in
                guard downstream != nil else { return nil }
                demand += more
                return subscription
            }
            live?.request(more)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let subscription = lock.withLock { () -> (any Subscription)? in
                guard downstream != nil else { return nil }
                self.demand += demand
                return self.subscription
            }
            subscription?.request(demand)
        }

        @inlinable
        func cancel() {
            let released = lock.withLock { () -> (Downstream?, Upstream?, (any Subscription)?) in
                guard downstream != nil else { return (nil, nil, nil) }
                return (downstream.take(), upstream.take(), subscription.take())
            }
            released.2?.cancel()
            withExtendedLifetime(released) {}
        }

        @usableFromInline
        var description: String { "Retry" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
