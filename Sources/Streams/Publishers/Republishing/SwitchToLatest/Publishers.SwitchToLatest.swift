extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// This operator works with an upstream publisher of publishers, flattening the stream of elements
    /// to appear as if they were coming from a single stream of elements. It switches the inner
    /// publisher as new ones arrive but keeps the outer publisher constant for downstream subscribers.
    ///
    /// When this operator receives a new publisher from the upstream publisher, it cancels its previous
    /// subscription, and nothing the previous publisher sends afterwards goes downstream. Use this
    /// feature to prevent earlier publishers from performing unnecessary work, such as creating network
    /// request publishers from frequently updating user interface publishers.
    ///
    /// Downstream demand that one inner publisher leaves unmet is asked of the next. The stream
    /// finishes once the upstream publisher and the latest inner publisher have both finished, and
    /// fails as soon as either fails.
    ///
    /// ```swift
    /// let searches = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
    /// let first = PassthroughSubject<String, Never>()
    /// let second = PassthroughSubject<String, Never>()
    /// let cancellable = searches
    ///     .switchToLatest()
    ///     .sink { print($0, terminator: " ") }
    ///
    /// searches.send(first)
    /// first.send("a")
    /// searches.send(second)
    /// first.send("ignored")
    /// second.send("b")
    /// // Prints: a b
    /// ```
    ///
    /// - Returns: A publisher that republishes the elements of the latest publisher it received.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// This operator works with an upstream publisher of publishers that cannot fail, flattening the
    /// stream of elements to appear as if they were coming from a single stream of elements. The
    /// upstream publisher takes on the inner publishers' failure type.
    ///
    /// When this operator receives a new publisher from the upstream publisher, it cancels its previous
    /// subscription. Use this feature to prevent earlier publishers from performing unnecessary work,
    /// such as creating network request publishers from frequently updating user interface publishers.
    ///
    /// - Returns: A publisher that republishes the elements of the latest publisher it received.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// This operator works with an upstream publisher of publishers, none of which can fail,
    /// flattening the stream of elements to appear as if they were coming from a single stream of
    /// elements.
    ///
    /// When this operator receives a new publisher from the upstream publisher, it cancels its previous
    /// subscription. Use this feature to prevent earlier publishers from performing unnecessary work,
    /// such as creating network request publishers from frequently updating user interface publishers.
    ///
    /// - Returns: A publisher that republishes the elements of the latest publisher it received.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// This operator works with an upstream publisher of publishers that cannot fail, flattening the
    /// stream of elements to appear as if they were coming from a single stream of elements. The inner
    /// publishers take on the upstream publisher's failure type.
    ///
    /// When this operator receives a new publisher from the upstream publisher, it cancels its previous
    /// subscription. Use this feature to prevent earlier publishers from performing unnecessary work,
    /// such as creating network request publishers from frequently updating user interface publishers.
    ///
    /// - Returns: A publisher that republishes the elements of the latest publisher it received.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>,
            Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers.
    ///
    /// Given a publisher that publishes ``Publisher`` instances, the `Publishers.SwitchToLatest`
    /// publisher produces a sequence of events from only the most recent one. The downstream
    /// subscriber sees a continuous stream of elements from what looks like a single publisher, even
    /// though the elements are coming from different upstream publishers.
    ///
    /// When `Publishers.SwitchToLatest` receives a new publisher from the upstream publisher, it
    /// cancels its previous subscription. Use this feature to prevent earlier publishers from
    /// performing unnecessary work, such as creating network request publishers from
    /// frequently-updating user interface publishers.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The kind of values published by this publisher: the inner publishers'.
        public typealias Output = P.Output

        /// The kind of errors this publisher might publish: the upstream's, which the inner publishers
        /// share.
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that “flattens” nested publishers.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Gives the subscriber its subscription, then subscribes to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let outer = Outer(downstream: subscriber)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publishers.SwitchToLatest: Sendable where Upstream: Sendable {}

extension Publishers.SwitchToLatest {
    /// The subscriber to the upstream publisher of publishers, the parent of each inner publisher's
    /// ``UpstreamSide`` subscriber, and the one subscription downstream sees.
    ///
    /// Its state, a ``SwitchToLatestState``, lives under `lock`; the decisions are the state's, and the
    /// calls to other parties happen here, with the lock released. The upstream and the inner
    /// publishers may call from different threads at once: everything that goes downstream goes
    /// through the state's turn, so downstream is never called from two threads at once. A call from
    /// the thread already calling downstream (from inside downstream) goes down nested in that call,
    /// as in Combine; a call from another thread waits for the turn. Subscribing, requesting and
    /// cancelling never wait.
    @usableFromInline
    final class Outer<Downstream: Subscriber>: Subscriber, Subscription, IndexedUpstreamOwner, NestingTurnDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == P.Output, Downstream.Failure == Upstream.Failure {
        /// Kept for as long as this object lives, as in Combine.
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state = SwitchToLatestState()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            if lock.withLock({ state.receiveOuter(subscription: subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Cancels the current inner subscription, then subscribes to the new publisher.
        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let (index, replaced) = lock.withLock({ state.receiveOuterValue() }) else { return .none }
            replaced?.cancel()
            input.subscribe(upstreamSide(index))
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let thread = ThreadIdentity.current
            let failed: Bool
            if case .failure = completion { failed = true } else { failed = false }
            let ending = lock.withLock { state.receiveOuterCompletion(failed: failed, thread: thread) }
            end(ending, thread: thread) { downstream.receive(completion: completion) }
        }

        // MARK: Inner publishers

        @inlinable
        func receive(subscription: any Subscription, upstream index: UInt64) {
            guard let demand = lock.withLock({ state.receiveInner(subscription: subscription, index: index) }) else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable
        func receive(_ input: P.Output, upstream index: UInt64) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            switch lock.withLock({ state.receiveValue(from: index, thread: thread) }) {
            case .drop:
                return .none
            case .deliver(let entry):
                let more = downstream.receive(input)
                delivered(more: more, from: index, releasingTurn: entry != .nested)
                return more
            case .wait:
                return receiveInnerAfterWaiting(input, index: index, thread: thread)
            }
        }

        /// Waits for the turn another thread holds, then delivers the value unless its publisher was
        /// replaced or the stream cancelled meanwhile.
        @inlinable
        @inline(never)
        func receiveInnerAfterWaiting(_ input: P.Output, index: UInt64, thread: ThreadIdentity)
            -> Subscribers.Demand
        {
            awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
            switch lock.withLock({ state.resumeValue(from: index) }) {
            case .drop(let waiter):
                waiter?.unpark()
                return .none
            case .deliver:
                let more = downstream.receive(input)
                delivered(more: more, from: index, releasingTurn: true)
                return more
            }
        }

        /// Counts the demand downstream returned for a value from inner publisher `index`, passes it
        /// on to the publisher that replaced that one meanwhile, if any, and gives the turn up if
        /// asked to.
        @inlinable
        func delivered(more: Subscribers.Demand, from index: UInt64, releasingTurn: Bool) {
            let (waiter, successor) = lock.withLock {
                state.delivered(more: more, from: index, releasingTurn: releasingTurn)
            }
            waiter?.unpark()
            successor?.request(more)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<P.Failure>, upstream index: UInt64) {
            let thread = ThreadIdentity.current
            let failed: Bool
            if case .failure = completion { failed = true } else { failed = false }
            let ending = lock.withLock {
                state.receiveInnerCompletion(from: index, failed: failed, thread: thread)
            }
            end(ending, thread: thread) { downstream.receive(completion: completion) }
        }

        /// Does what a completion asks once the lock is released: cancels, lets go, then calls
        /// downstream holding the turn.
        @inlinable
        func end(_ ending: SwitchToLatestState.Ending, thread: ThreadIdentity, _ deliver: () -> Void) {
            ending.cancel?.cancel()
            withExtendedLifetime(ending.release) {}
            guard let entry = ending.delivery else { return }
            sendCompletion(entry, thread: thread, deliver)
        }

        // MARK: Subscription

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            lock.withLock { state.request(demand) }?.request(demand)
        }

        /// Cancels the current inner subscription, then the upstream one.
        @inlinable
        func cancel() {
            let (inner, outer) = lock.withLock { state.cancel() }
            inner?.cancel()
            outer?.cancel()
        }

        @usableFromInline
        static var upstreamPresentation: UpstreamSidePresentation { .child(named: "SwitchToLatest") }

        @usableFromInline
        var description: String { "SwitchToLatest" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
