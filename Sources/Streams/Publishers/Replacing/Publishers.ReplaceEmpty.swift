extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If the upstream publisher finishes without producing any elements, this publisher emits the
    /// provided element, then finishes normally. If the upstream produces at least one element, or
    /// fails, the stream passes through unchanged.
    ///
    /// Like Combine's, this operator asks the upstream for unlimited values as soon as it subscribes,
    /// and passes downstream's requests on as well; the replacement waits until downstream has asked
    /// for something.
    ///
    /// ```swift
    /// let numbers: [Double] = []
    /// let cancellable = numbers.publisher
    ///     .replaceEmpty(with: Double.nan)
    ///     .sink { print($0) }
    /// // Prints: nan
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher finishes without emitting
    ///   any elements.
    /// - Returns: A publisher that replaces an empty stream with the provided output element.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an empty stream with a provided element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element to deliver when the upstream publisher finishes without
        ///     delivering any elements.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a subscriber that watches for an empty stream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceEmpty {
    /// The subscriber attached upstream, and the subscription downstream sees.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        /// The value published when the upstream finishes empty.
        @usableFromInline
        let output: Upstream.Output

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Touched only by `receive(_:)` and `receive(completion:)`, which never run concurrently.
        @usableFromInline
        var receivedValue = false

        /// Guarded by `lock`: whether downstream has ever requested values.
        @usableFromInline
        var downstreamRequested = false

        /// Guarded by `lock`: the upstream finished empty and the replacement waits for a request.
        @usableFromInline
        var replacementPending = false

        @inlinable
        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard lock.withLock({ status.isSubscribed }) else { return .none }
            receivedValue = true
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let replaceNow = lock.withLock { () -> Bool? in
                guard status.complete() else { return nil }
                guard case .finished = completion, !receivedValue else { return false }
                if downstreamRequested { return true }
                replacementPending = true
                return nil
            }
            switch replaceNow {
            case true?: publishReplacement()
            case false?: downstream.receive(completion: completion)
            case nil: return
            }
        }

        @inlinable
        func publishReplacement() {
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let (subscription, replaceNow) = lock.withLock { () -> ((any Subscription)?, Bool) in
                downstreamRequested = true
                if replacementPending {
                    replacementPending = false
                    return (nil, true)
                }
                return (status.subscription, false)
            }
            if replaceNow {
                publishReplacement()
            } else {
                subscription?.request(demand)
            }
        }

        /// Like Combine's, a cancel before the upstream's subscription arrives does nothing.
        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                replacementPending = false
                guard status.isSubscribed else { return nil }
                return status.terminate()
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "ReplaceEmpty" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
