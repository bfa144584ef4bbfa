extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    ///
    /// The returned publisher asks the second publisher for one element and drops every upstream
    /// element until that element arrives; from then on, upstream elements pass through. Demand from
    /// downstream goes straight upstream, so elements that upstream sends while the second publisher
    /// is still silent are dropped and count against that demand. If the second publisher completes
    /// (or fails) before producing an element, the completion goes downstream and upstream is
    /// cancelled.
    ///
    /// ```swift
    /// let upstream = PassthroughSubject<Int, Never>()
    /// let second = PassthroughSubject<String, Never>()
    /// let cancellable = upstream
    ///     .drop(untilOutputFrom: second)
    ///     .sink { print($0, terminator: " ") }
    ///
    /// upstream.send(1)
    /// upstream.send(2)
    /// second.send("A")
    /// upstream.send(3)
    /// upstream.send(4)
    /// // Prints: 3 4
    /// ```
    ///
    /// - Parameter publisher: A publisher to monitor for its first emitted element.
    /// - Returns: A publisher that drops elements from the upstream publisher until the `other`
    ///   publisher produces a value.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element
    /// from second publisher.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, which the other
        /// publisher shares.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it receives
        /// an element from another publisher.
        ///
        /// - Parameters:
        ///   - upstream: A publisher to drop elements from while waiting for another publisher to
        ///     emit elements.
        ///   - other: A publisher to monitor for its first emitted element.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Gives the subscriber its subscription, then subscribes to the other publisher, then to
        /// the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            let trigger = Inner.Trigger(receiver: inner)
            inner.state.trigger = trigger
            subscriber.receive(subscription: inner)
            other.subscribe(trigger)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publishers.DropUntilOutput {
    /// The subscriber to the upstream, and the subscription downstream sees: a thin class around its
    /// ``DropUntilOutputState``, which decides.
    ///
    /// The upstream and the other publisher may call it from different threads at once; everything
    /// that goes downstream goes through the state's turn, so that downstream is never called from
    /// two threads at once, and never with the lock held.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, NestingTurnDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
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
        var state = DropUntilOutputState<Trigger>()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            guard let demand = lock.withLock({ state.receiveUpstream(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            guard let entry = lock.withLock({ state.receiveUpstreamValue(thread: thread) }) else { return .none }
            return withTurn(entry, thread: thread) { downstream.receive(input) }
        }

        /// Passes the first completion on after cancelling the other publisher's subscription.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard let (other, trigger) = lock.withLock({ state.upstreamDidComplete() }) else { return }
            trigger?.detach()
            other?.cancel()
            sendCompletionDownstream { downstream.receive(completion: completion) }
        }

        // MARK: Other publisher

        @usableFromInline
        func otherReceive(subscription: any Subscription) {
            if lock.withLock({ state.receiveOther(subscription: subscription) }) {
                subscription.request(.max(1))
            } else {
                subscription.cancel()
            }
        }

        @usableFromInline
        func otherReceive(_ input: Other.Output) -> Subscribers.Demand {
            lock.withLock { state.otherDidSend() }?.detach()
            return .none
        }

        /// Before the first element, passes the completion on and cancels upstream.
        @usableFromInline
        func otherReceive(completion: Subscribers.Completion<Other.Failure>) {
            guard let upstream = lock.withLock({ state.otherDidComplete() }) else { return }
            upstream?.cancel()
            sendCompletionDownstream { downstream.receive(completion: completion) }
        }

        // MARK: Downstream

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            let subscription = lock.withLock { state.request(demand) }
            if demand > 0 { subscription?.request(demand) }
        }

        /// Cancels upstream, then the other publisher, and lets go of both.
        @usableFromInline
        func cancel() {
            guard let (upstream, other, trigger) = lock.withLock({ state.cancel() }) else { return }
            trigger?.detach()
            upstream?.cancel()
            other?.cancel()
        }

        @usableFromInline
        var description: String { "DropUntilOutput" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

extension Publishers.DropUntilOutput.Inner: NamedOtherPublisherReceiver {
    @usableFromInline
    typealias OtherOutput = Other.Output

    @usableFromInline
    typealias OtherFailure = Other.Failure

    /// The subscriber to the other publisher.
    @usableFromInline
    typealias Trigger = OtherSubscriber<Publishers.DropUntilOutput<Upstream, Other>.Inner<Downstream>>

    @usableFromInline
    static var otherSubscriberDescription: String { "DropUntilOutput" }
}
