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
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.FlatMap {
    /// The subscriber to the upstream, the parent of every new publisher's subscriber, and the one
    /// subscription downstream sees.
    ///
    /// All state lives under `lock`. Values reach downstream one at a time, from whichever thread
    /// holds the emitting turn (`turn`, a ``DeliveryTurn``, with the rules given there): a value that
    /// a new publisher sends from another thread while one thread emits waits for the turn and then
    /// goes down on its own thread, so its `send` returns after delivery. A value that arrives on the
    /// emitting thread itself, from inside a call to downstream, goes down at once, nested in that
    /// call, as in Combine (unless older values are buffered, or the emitting thread is asking a new
    /// publisher for more). Any other value that cannot go down yet, for want of demand, waits in
    /// `buffer`, and the emitting thread drains it without holding the lock. Completion and failure
    /// go through the same turn, so downstream is never called from two threads at once.
    ///
    /// Each new publisher is asked for one value at a time (one more for each of its values that goes
    /// down), or for unlimited values once downstream's demand is unlimited.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, IndexedUpstreamOwner,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        /// What the new publishers publish.
        @usableFromInline
        typealias UpstreamInput = NewPublisher.Output

        @usableFromInline
        typealias UpstreamFailure = NewPublisher.Failure

        @usableFromInline
        typealias UpstreamIndex = Int

        /// A new publisher's place: subscribed to, or waiting for its subscription.
        @usableFromInline
        enum Child {
            case pending
            case subscribed(any Subscription)

            @inlinable
            var subscription: (any Subscription)? {
                if case .subscribed(let subscription) = self { return subscription }
                return nil
            }
        }

        /// What the emitting thread does next.
        @usableFromInline
        typealias Step = DrainStep<NewPublisher.Output, Upstream.Failure>

        /// What to do with a value from a new publisher.
        @usableFromInline
        enum Arrival {
            /// Ignore it: the stream has ended.
            case drop
            /// It was buffered; someone else delivers it, or more demand will.
            case buffered
            /// Deliver it now; the flag says downstream's demand is unlimited.
            case deliver(unlimited: Bool)
            /// It was buffered behind older values; drain them.
            case drain
            /// Another thread is emitting: wait for the turn.
            case wait
            /// This thread is emitting and is inside a call to downstream: deliver it there and then,
            /// as Combine does; the flag says downstream's demand is unlimited.
            case nested(unlimited: Bool)
        }

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let maxPublishers: Subscribers.Demand

        @usableFromInline
        let transform: (Upstream.Output) -> NewPublisher

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var upstreamStatus = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: upstream finished normally.
        @usableFromInline
        @exclusivity(unchecked)
        var upstreamFinished = false

        /// Guarded by `lock`: the new publishers that have not finished, by index.
        @usableFromInline
        @exclusivity(unchecked)
        var children: [Int: Child] = [:]

        /// Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var nextChildIndex = 0

        /// Guarded by `lock`: downstream's outstanding demand.
        @usableFromInline
        @exclusivity(unchecked)
        var demand = Subscribers.Demand.none

        /// Guarded by `lock`: values waiting for demand or for the emitting thread, with the index of
        /// the publisher that sent each.
        @usableFromInline
        @exclusivity(unchecked)
        var buffer = FIFOQueue<(child: Int, value: NewPublisher.Output)>()

        /// Guarded by `lock`: which thread delivers to downstream, and who waits for it.
        @usableFromInline
        @exclusivity(unchecked)
        var turn = DeliveryTurn()

        /// Guarded by `lock`: no more values go downstream (completed, failing or cancelled).
        @usableFromInline
        @exclusivity(unchecked)
        var isTerminal = false

        /// Guarded by `lock`: a failure for the emitting thread to deliver.
        @usableFromInline
        @exclusivity(unchecked)
        var pendingFailure: Upstream.Failure?

        /// Guarded by `lock`: downstream cancelled. Unlike a completion, this stops the values that
        /// new publishers still send.
        @usableFromInline
        @exclusivity(unchecked)
        var isCancelled = false

        /// Guarded by `lock`: the emitting thread is asking a new publisher for one more value, so a
        /// value that publisher sends back meanwhile is buffered rather than delivered in the middle.
        @usableFromInline
        @exclusivity(unchecked)
        var isRequestingFromChild = false

        /// Guarded by `lock`: upstream's failure is cancelling the new publishers' subscriptions.
        /// Upstream calling again meanwhile is a re-entrant call Combine cannot survive.
        @usableFromInline
        @exclusivity(unchecked)
        var isCancellingForUpstreamFailure = false

        @inlinable
        init(
            downstream: Downstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.downstream = downstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            let accepted = lock.withLock {
                guard !isTerminal, case .awaitingSubscription = upstreamStatus else { return false }
                upstreamStatus = .subscribed(subscription)
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            subscription.request(maxPublishers)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let index = lock.withLock { () -> Int? in
                checkNotReenteredDuringUpstreamFailureLocked()
                guard !isTerminal, upstreamStatus.subscription != nil else { return nil }
                let index = nextChildIndex
                nextChildIndex += 1
                children[index] = .pending
                return index
            }
            guard let index else { return .none }
            transform(input).receive(subscriber: upstreamSide(index))
            return .none
        }

        /// Forwards the completion, even one that arrives before the subscription, as Combine does.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                let live = lock.withLock { () -> Bool in
                    checkNotReenteredDuringUpstreamFailureLocked()
                    upstreamStatus = .terminal
                    upstreamFinished = true
                    return !isTerminal
                }
                if live { drainIfIdle() }
            case .failure(let error):
                let live = lock.withLock { () -> Bool in
                    checkNotReenteredDuringUpstreamFailureLocked()
                    return !isTerminal
                }
                if live { fail(error, sparing: nil) }
            }
        }

        /// Stops the program when upstream calls again while its failure is cancelling the new
        /// publishers: Combine stops there too. Call with `lock` held.
        @inlinable
        func checkNotReenteredDuringUpstreamFailureLocked() {
            precondition(
                !isCancellingForUpstreamFailure,
                "FlatMap's upstream sent an event while its failure was still cancelling the new publishers"
            )
        }

        // MARK: New publishers

        @inlinable
        func receive(subscription: any Subscription, upstream index: Int) {
            let first = lock.withLock { () -> Subscribers.Demand? in
                guard !isTerminal, case .pending? = children[index] else { return nil }
                children[index] = .subscribed(subscription)
                return demand == .unlimited ? .unlimited : .max(1)
            }
            guard let first else {
                subscription.cancel()
                return
            }
            subscription.request(first)
        }

        @inlinable
        func receive(_ input: NewPublisher.Output, upstream index: Int) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            let arrival = lock.withLock { () -> Arrival in
                guard !isCancelled else { return .drop }
                if turn.isHeld && turn.holder != thread { return .wait }
                return arriveLocked(input, index: index, thread: thread, holdingTurn: false)
            }
            return receive(input, index: index, arrival: arrival, thread: thread)
        }

        /// Delivers, buffers or drops a value from a new publisher, as `arrival` says.
        @inlinable
        func receive(
            _ input: NewPublisher.Output, index: Int, arrival: Arrival, thread: ThreadIdentity
        ) -> Subscribers.Demand {
            switch arrival {
            case .drop, .buffered:
                return .none
            case .deliver(let unlimited):
                let more = downstream.receive(input)
                drain(adding: more)
                return unlimited ? .none : .max(1)
            case .drain:
                drain(adding: .none)
                return .none
            case .wait:
                return receiveAfterWaiting(input, index: index, thread: thread)
            case .nested(let unlimited):
                let more = downstream.receive(input)
                if more > 0 { lock.withLock { demand += more } }
                return unlimited ? .none : .max(1)
            }
        }

        /// What to do with a value from a new publisher, when no other thread holds the turn: take
        /// the turn if it is free (or use it, when `holdingTurn`) and deliver the value, deliver it
        /// in the middle of the call to downstream this thread is making, or buffer it.
        ///
        /// As in Combine, a value is delivered whenever there is demand, even from a publisher that
        /// has finished. Once the stream has ended, only a value sent from inside the call that ends
        /// it (on the same thread) still goes down, as in Combine; values from other threads racing
        /// the end are dropped, so downstream sees nothing after the completion it has returned from.
        /// Call with `lock` held.
        @inlinable
        func arriveLocked(
            _ input: NewPublisher.Output, index: Int, thread: ThreadIdentity, holdingTurn: Bool
        ) -> Arrival {
            let reentrant = !holdingTurn && turn.isHeld
            if reentrant, !isRequestingFromChild, buffer.isEmpty, demand > 0 {
                let unlimited = demand == .unlimited
                demand -= 1
                return .nested(unlimited: unlimited)
            }
            guard !isTerminal else { return .drop }
            let mayEmit = holdingTurn || !turn.isHeld
            if mayEmit, buffer.isEmpty, demand > 0 {
                if !holdingTurn { turn.take(by: thread) }
                let unlimited = demand == .unlimited
                demand -= 1
                return .deliver(unlimited: unlimited)
            }
            buffer.append((index, input))
            guard mayEmit, demand > 0 else { return .buffered }
            if !holdingTurn { turn.take(by: thread) }
            return .drain
        }

        /// Waits for the turn that another thread holds, then delivers or buffers the value.
        @inlinable
        @inline(never)
        func receiveAfterWaiting(_ input: NewPublisher.Output, index: Int, thread: ThreadIdentity)
            -> Subscribers.Demand
        {
            awaitTurn(lock: lock) { turn.attempt(by: thread, mayPark: $0) }
            let arrival = lock.withLock { () -> Arrival in
                guard !isCancelled else { return .drop }
                return arriveLocked(input, index: index, thread: thread, holdingTurn: true)
            }
            let more = receive(input, index: index, arrival: arrival, thread: thread)
            switch arrival {
            case .drop, .buffered:
                // Still holding the turn: deliver what demand that arrived meanwhile allows, then
                // give the turn up.
                drain(adding: .none)
            case .deliver, .drain, .wait, .nested:
                break
            }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<NewPublisher.Failure>, upstream index: Int) {
            switch completion {
            case .finished:
                // As in Combine, every completion asks upstream for one more publisher, even a
                // repeated one.
                let next = lock.withLock { () -> (any Subscription)?? in
                    guard !isTerminal else { return nil }
                    children.removeValue(forKey: index)
                    guard maxPublishers != .unlimited else { return .some(nil) }
                    return .some(upstreamStatus.subscription)
                }
                guard let next else { return }
                drainIfIdle()
                next?.request(.max(1))
            case .failure(let error):
                let live = lock.withLock { !isTerminal && children[index] != nil }
                if live { fail(error, sparing: index) }
            }
        }

        // MARK: Delivery

        /// Ends the stream with a failure: cancels the other new publishers' subscriptions and
        /// delivers the failure, or leaves it to the emitting thread.
        ///
        /// As in Combine, a new publisher's failure does not cancel upstream: its subscription is
        /// only let go, and its later values are ignored.
        @inlinable
        func fail(_ error: Upstream.Failure, sparing failedChild: Int?) {
            let ended = lock.withLock { () -> (cancel: [any Subscription], released: Any, deliver: Bool)? in
                guard !isTerminal else { return nil }
                isTerminal = true
                var cancel: [any Subscription] = []
                for (index, child) in children where index != failedChild {
                    if let subscription = child.subscription { cancel.append(subscription) }
                }
                if failedChild == nil, !cancel.isEmpty { isCancellingForUpstreamFailure = true }
                let released: Any = (children, buffer, upstreamStatus)
                children = [:]
                buffer = FIFOQueue()
                upstreamStatus = .terminal
                guard !turn.isHeld else {
                    pendingFailure = error
                    return (cancel, released, false)
                }
                turn.take(by: .current)
                return (cancel, released, true)
            }
            guard let ended else { return }
            if !ended.cancel.isEmpty {
                for subscription in ended.cancel { subscription.cancel() }
                if failedChild == nil { lock.withLock { isCancellingForUpstreamFailure = false } }
            }
            withExtendedLifetime(ended.released) {}
            if ended.deliver {
                downstream.receive(completion: .failure(error))
                releaseTurn()
            }
        }

        /// Gives the turn up, to the thread that has waited longest if one is parked.
        @inlinable
        func releaseTurn() {
            lock.withLock { turn.release() }?.unpark()
        }

        /// Takes the turn if nobody holds it, and drains.
        @inlinable
        func drainIfIdle() {
            let start = lock.withLock { () -> Bool in
                guard !turn.isHeld else { return false }
                turn.take(by: .current)
                return true
            }
            if start { drain(adding: .none) }
        }

        /// Delivers buffered values while there is demand, then the completion if it is due. Runs on
        /// the thread holding the turn, which it gives up before returning.
        @inlinable
        func drain(adding initialDemand: Subscribers.Demand) {
            drainDeliveryTurn(to: downstream, adding: initialDemand, lock: lock, releaseTurn: releaseTurn) {
                added -> Step in
                isRequestingFromChild = false
                if isTerminal {
                    if let failure = pendingFailure.take() { return .fail(failure) }
                    return .stop(turn.release())
                }
                if added > 0 { demand += added }
                if demand > 0, let (child, value) = buffer.popFirst() {
                    demand -= 1
                    let source = demand == .unlimited ? nil : children[child]?.subscription
                    isRequestingFromChild = source != nil
                    return .deliver(value, source)
                }
                if upstreamFinished, children.isEmpty, buffer.isEmpty {
                    isTerminal = true
                    return .finish
                }
                return .stop(turn.release())
            }
        }

        // MARK: Subscription

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let (start, unleash) = lock.withLock { () -> (Bool, [any Subscription]) in
                guard !isTerminal else { return (false, []) }
                let wasUnlimited = self.demand == .unlimited
                self.demand += demand
                var unleash: [any Subscription] = []
                if !wasUnlimited, self.demand == .unlimited {
                    unleash = children.values.compactMap(\.subscription)
                }
                guard !turn.isHeld else { return (false, unleash) }
                turn.take(by: .current)
                return (true, unleash)
            }
            if start { drain(adding: .none) }
            for subscription in unleash { subscription.request(.unlimited) }
        }

        @inlinable
        func cancel() {
            let ended = lock.withLock { () -> (cancel: [any Subscription], released: Any)? in
                isCancelled = true
                guard !isTerminal else { return nil }
                isTerminal = true
                var cancel = children.values.compactMap(\.subscription)
                if let upstream = upstreamStatus.subscription { cancel.append(upstream) }
                let released: Any = (children, buffer)
                children = [:]
                buffer = FIFOQueue()
                upstreamStatus = .terminal
                return (cancel, released)
            }
            guard let ended else { return }
            for subscription in ended.cancel { subscription.cancel() }
            withExtendedLifetime(ended.released) {}
        }

        @usableFromInline
        static var upstreamPresentation: UpstreamSidePresentation { .child(named: "FlatMap") }

        @usableFromInline
        var description: String { "FlatMap" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
