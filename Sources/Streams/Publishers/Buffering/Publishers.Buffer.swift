extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// The publisher keeps up to `size` elements that downstream has not asked for yet. With
    /// ``Publishers/PrefetchStrategy/keepFull`` it asks upstream for `size` elements at once and for
    /// one more each time an element goes downstream; with ``Publishers/PrefetchStrategy/byRequest``
    /// it asks upstream for an unlimited number. When an element arrives with the buffer full,
    /// `whenFull` decides: drop that element, drop the oldest buffered one, or fail with an error
    /// (after the buffered elements have gone downstream).
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject
    ///     .buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
    ///     .sink { print($0, terminator: " ") }
    /// subject.send(1)
    /// subject.send(2)
    /// subject.send(3)
    /// // Prints: 1 2 3
    /// ```
    ///
    /// - Parameters:
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy to initially populate the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    /// - Returns: A publisher that buffers elements received from an upstream publisher.
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy {
        /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
        ///
        /// This strategy starts by making a demand equal to the buffer's size from the upstream when
        /// the subscriber first connects. Afterwards, it continues to demand elements from the
        /// upstream to try to keep the buffer full.
        case keepFull

        /// A strategy that avoids prefetching and instead performs requests on demand.
        ///
        /// This strategy just forwards the downstream's requests to the upstream publisher.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer's capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest

        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest

        /// When the buffer is full, execute the closure to provide a custom error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of elements to store.
        public let size: Int

        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy

        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Creates a publisher that buffers elements received from an upstream publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - size: The maximum number of elements to store.
        ///   - prefetch: The strategy for initially populating the buffer.
        ///   - whenFull: The action to take when the buffer becomes full.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Upstream.Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes to the upstream publisher; the subscriber receives its subscription once
        /// upstream's arrives and the buffer has asked upstream for its first elements.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefetchStrategy: Equatable {}

extension Publishers.PrefetchStrategy: Hashable {}

extension Publishers.PrefetchStrategy: Sendable {}

extension Publishers.Buffer {
    /// The subscriber to the upstream, and the subscription downstream sees: a thin class around its
    /// ``BufferState``, which decides.
    ///
    /// Buffered elements go downstream in batches from a drain loop that runs on whichever thread
    /// holds the state's turn: a request or an element arriving from another thread meanwhile only
    /// updates the state, and the draining thread picks it up before it gives the turn up, so
    /// downstream is never called from two threads at once, and never with the lock held. A call made
    /// on the draining thread from inside downstream behaves as in Combine: a request only adds
    /// demand, and an element or completion drains at once, nested.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let size: Int

        @usableFromInline
        let prefetch: Publishers.PrefetchStrategy

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state: BufferState<Input, Failure>

        @inlinable
        init(
            downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.downstream = downstream
            self.size = size
            self.prefetch = prefetch
            self.state = BufferState(size: size, whenFull: whenFull)
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ state.status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            switch lock.withLock({ state.arrive(input) }) {
            case .ignore:
                return .none
            case .buffered:
                return drain()
            case .makeError(let makeError, let subscription):
                let error = makeError()
                lock.withLock { state.madeError(error) }
                subscription.cancel()
                return .none
            }
        }

        /// Records the first completion; it goes downstream once the buffer has drained.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if lock.withLock({ state.complete(completion) }) { _ = drain() }
        }

        // MARK: Downstream

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            let thread = ThreadIdentity.current
            guard let subscription = lock.withLock({ state.request(demand, thread: thread) }) else { return }
            let more = drainHoldingTurn(releasing: true)
            if more > 0 { subscription.request(more) }
        }

        /// Cancels upstream and drops the buffered elements.
        @inlinable
        func cancel() {
            let (subscription, dropped) = lock.withLock { state.cancel() }
            withExtendedLifetime(dropped) {}
            subscription?.cancel()
        }

        // MARK: Draining

        /// Drains if this thread may: at once when nobody drains, nested when this thread already
        /// does; when another thread drains, it leaves the work to it. Returns what to ask of
        /// upstream for the elements delivered here.
        @inlinable
        func drain() -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            switch lock.withLock({ state.turn.enter(by: thread) }) {
            case .taken: return drainHoldingTurn(releasing: true)
            case .nested: return drainHoldingTurn(releasing: false)
            case .busy: return .none
            }
        }

        /// Sends buffered elements, then the completion when it is due, while downstream has demand.
        @inlinable
        func drainHoldingTurn(releasing: Bool) -> Subscribers.Demand {
            var upstreamDemand = Subscribers.Demand.none
            while true {
                let (step, waiter) = lock.withLock { state.next(releasing: releasing) }
                waiter?.unpark()
                switch step {
                case .stop:
                    return upstreamDemand
                case .complete(let completion):
                    downstream.receive(completion: completion)
                    return upstreamDemand
                case .deliver(let batch):
                    var more = Subscribers.Demand.none
                    for value in batch { more += downstream.receive(value) }
                    if prefetch == .keepFull { upstreamDemand += batch.count }
                    if more > 0 { lock.withLock { state.add(more) } }
                }
            }
        }

        @usableFromInline
        var description: String { "Buffer" }

        @usableFromInline
        var customMirror: Mirror {
            let children: [Mirror.Child] = lock.withLock {
                [
                    ("values", Array(state.values)), ("state", state.status),
                    ("downstreamDemand", state.downstreamDemand), ("terminal", state.terminal as Any),
                ]
            }
            return Mirror(self, children: children)
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
