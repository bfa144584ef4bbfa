extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// If the upstream publisher fails, this publisher emits the provided element, then finishes
    /// normally. If downstream has no outstanding demand when the failure arrives, the element waits
    /// until downstream asks for it. Values and a normal completion pass through unchanged.
    ///
    /// ```swift
    /// struct MyError: Error {}
    /// let fail = Fail<String, MyError>(error: MyError())
    /// let cancellable = fail
    ///     .replaceError(with: "(replacement element)")
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // (replacement element)
    /// // finished
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher fails.
    /// - Returns: A publisher that replaces an error from the upstream publisher with the provided
    ///   output element.
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces any errors in the stream with a provided element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element with which to replace errors from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a subscriber that turns a failure into the replacement.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
            upstream.receive(subscriber: Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceError {
    /// Passes values and demand through while counting downstream's outstanding demand, so that on a
    /// failure it knows whether it may publish the replacement at once.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let output: Upstream.Output

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: downstream's outstanding demand.
        @usableFromInline
        var demand = Subscribers.Demand.none

        /// Guarded by `lock`: upstream failed and the replacement waits for demand.
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
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let live = lock.withLock { () -> Bool in
                guard status.isSubscribed else { return false }
                demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { demand += more } }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let sendReplacementNow = lock.withLock { () -> Bool? in
                guard status.isSubscribed else { return nil }
                status = .terminal
                guard case .failure = completion else { return false }
                if demand > 0 { return true }
                replacementPending = true
                return nil
            }
            switch sendReplacementNow {
            case nil:
                return
            case true?:
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            case false?:
                downstream.receive(completion: .finished)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let (subscription, sendReplacement) = lock.withLock { () -> ((any Subscription)?, Bool) in
                if replacementPending {
                    replacementPending = false
                    return (nil, true)
                }
                guard let subscription = status.subscription else { return (nil, false) }
                self.demand += demand
                return (subscription, false)
            }
            if sendReplacement {
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            } else {
                subscription?.request(demand)
            }
        }

        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                replacementPending = false
                return status.terminate()
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "ReplaceError" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
