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
            inner.trigger = trigger
            subscriber.receive(subscription: inner)
            other.receive(subscriber: trigger)
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publishers.DropUntilOutput {
    /// The subscriber to the upstream, and the subscription downstream sees.
    ///
    /// Its state lives under `lock`. The upstream and the other publisher may call it from
    /// different threads at once; everything that goes downstream goes through `turn`, so that
    /// downstream is never called from two threads at once, and never with the lock held.
    ///
    /// It keeps Combine's edge cases: the other publisher's completion before its first element goes
    /// downstream (every time it arrives) and cancels upstream, yet a later element from the other
    /// publisher still opens the gate; the element that opens the gate releases the other
    /// subscription without cancelling it, and a new one is then accepted; an element dropped
    /// beyond the demand downstream gave stops the program.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`: the upstream subscription, while there is one.
        @usableFromInline
        var upstreamSubscription: (any Subscription)?

        /// Guarded by `lock`: the other publisher's subscription, until it sends its first element
        /// or completes.
        @usableFromInline
        var otherSubscription: (any Subscription)?

        /// Guarded by `lock`: the other publisher produced an element; upstream elements now pass.
        @usableFromInline
        var triggered = false

        /// Guarded by `lock`: the other publisher completed before producing an element, so a further
        /// subscription from it is refused.
        @usableFromInline
        var otherCompleted = false

        /// Guarded by `lock`: upstream completed.
        @usableFromInline
        var upstreamCompleted = false

        /// Guarded by `lock`: downstream cancelled.
        @usableFromInline
        var cancelled = false

        /// Guarded by `lock`: what downstream requested, less the elements dropped so far.
        @usableFromInline
        var pendingDemand = Subscribers.Demand.none

        /// Guarded by `lock`: which thread is calling downstream.
        @usableFromInline
        var turn = DeliveryTurn()

        /// Guarded by `lock` (set before anyone else sees this object): the subscriber to the other
        /// publisher, until nothing it could report matters any more (after cancel, or once upstream
        /// has completed and the gate has opened) and it is told to let go of this object, so that an
        /// other publisher that outlives the stream does not keep the downstream alive. Weak: the
        /// other publisher keeps it alive, and this object must not, while it holds this object.
        @usableFromInline
        weak var trigger: Trigger?

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            let demand = lock.withLock { () -> Subscribers.Demand? in
                guard upstreamSubscription == nil, !cancelled, !upstreamCompleted else { return nil }
                upstreamSubscription = subscription
                return pendingDemand
            }
            guard let demand else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            let entry = lock.withLock { () -> TurnEntry? in
                guard triggered, !cancelled, !upstreamCompleted else {
                    precondition(
                        pendingDemand > 0, "drop(untilOutputFrom:) received a value beyond the demand it requested")
                    pendingDemand -= 1
                    return nil
                }
                return turn.enter(by: thread)
            }
            guard let entry else { return .none }
            return withTurn(entry, thread: thread) { downstream.receive(input) }
        }

        /// Passes the first completion on after cancelling the other publisher's subscription.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let ending = lock.withLock { () -> ((any Subscription)?, Trigger?)? in
                guard !cancelled, !upstreamCompleted else { return nil }
                upstreamCompleted = true
                upstreamSubscription = nil
                let trigger = triggered ? self.trigger : nil
                if triggered { self.trigger = nil }
                return (otherSubscription.take(), trigger)
            }
            guard let (other, trigger) = ending else { return }
            trigger?.detach()
            other?.cancel()
            sendDownstream { downstream.receive(completion: completion) }
        }

        // MARK: Other publisher

        @usableFromInline
        func otherReceive(subscription: any Subscription) {
            let accepted = lock.withLock { () -> Bool in
                guard otherSubscription == nil, !otherCompleted, !cancelled, !upstreamCompleted else {
                    return false
                }
                otherSubscription = subscription
                return true
            }
            if accepted {
                subscription.request(.max(1))
            } else {
                subscription.cancel()
            }
        }

        @usableFromInline
        func otherReceive(_ input: Other.Output) -> Subscribers.Demand {
            let trigger = lock.withLock { () -> Trigger? in
                triggered = true
                otherSubscription = nil
                guard upstreamCompleted else { return nil }
                defer { self.trigger = nil }
                return self.trigger
            }
            trigger?.detach()
            return .none
        }

        /// Before the first element, passes the completion on and cancels upstream.
        @usableFromInline
        func otherReceive(completion: Subscribers.Completion<Other.Failure>) {
            let upstream = lock.withLock { () -> (any Subscription)?? in
                otherSubscription = nil
                guard !triggered, !cancelled else { return nil }
                otherCompleted = true
                return .some(upstreamSubscription.take())
            }
            guard let upstream else { return }
            upstream?.cancel()
            sendDownstream { downstream.receive(completion: completion) }
        }

        // MARK: Downstream

        @usableFromInline
        func request(_ demand: Subscribers.Demand) {
            let subscription = lock.withLock { () -> (any Subscription)? in
                pendingDemand += demand
                return upstreamSubscription
            }
            if demand > 0 { subscription?.request(demand) }
        }

        /// Cancels upstream, then the other publisher, and lets go of both.
        @usableFromInline
        func cancel() {
            let ending = lock.withLock { () -> ((any Subscription)?, (any Subscription)?, Trigger?)? in
                guard !cancelled else { return nil }
                cancelled = true
                defer { trigger = nil }
                return (upstreamSubscription.take(), otherSubscription.take(), trigger)
            }
            guard let (upstream, other, trigger) = ending else { return }
            trigger?.detach()
            upstream?.cancel()
            other?.cancel()
        }

        // MARK: Serializing

        /// Calls downstream once the calling thread holds the turn.
        @usableFromInline
        func sendDownstream(_ body: () -> Void) {
            let thread = ThreadIdentity.current
            let entry = lock.withLock { turn.enter(by: thread) }
            withTurn(entry, thread: thread, body)
        }

        /// Runs `body` holding the turn, as `entry` says: at once if nested, after waiting if busy,
        /// and releases the turn afterwards unless an outer call holds it.
        @inlinable
        func withTurn<Result>(_ entry: TurnEntry, thread: ThreadIdentity, _ body: () -> Result) -> Result {
            switch entry {
            case .nested:
                return body()
            case .busy:
                awaitTurn(lock: lock) { turn.attempt(by: thread, mayPark: $0) }
            case .taken:
                break
            }
            let result = body()
            lock.withLock { turn.release() }?.unpark()
            return result
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
