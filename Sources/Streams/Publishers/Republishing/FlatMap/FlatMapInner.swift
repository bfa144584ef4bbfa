extension Publishers.FlatMap {
    /// The subscriber to the upstream, the parent of every new publisher's ``UpstreamSide``
    /// subscriber, and the one subscription downstream sees.
    ///
    /// Its state, one ``FlatMapState`` under `lock`, decides (the rules are written there); this
    /// class carries out the decisions with the lock released, so downstream, upstream and the new
    /// publishers are never called with it held. A value that a new publisher sends from another
    /// thread while one thread emits waits for the turn and then goes down on its own thread, so its
    /// `send` returns after delivery. Completion and failure go through the same turn, so downstream
    /// is never called from two threads at once.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, IndexedUpstreamOwner,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias State = FlatMapState<NewPublisher.Output, Upstream.Failure>

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let transform: (Upstream.Output) -> NewPublisher

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state: State

        @inlinable
        init(
            downstream: Downstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.downstream = downstream
            self.transform = transform
            self.state = State(maxPublishers: maxPublishers)
        }

        // MARK: Upstream

        @inlinable
        func receive(subscription: any Subscription) {
            guard let publishers = lock.withLock({ state.receiveUpstream(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(publishers)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let index = lock.withLock({ state.addChild() }) else { return .none }
            transform(input).subscribe(upstreamSide(index))
            return .none
        }

        /// Forwards the completion, even one that arrives before the subscription, as Combine does.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                if lock.withLock({ state.upstreamDidFinish() }) { drainIfIdle() }
            case .failure(let error):
                if lock.withLock({ state.upstreamMayFail() }) { fail(error, sparing: nil) }
            }
        }

        // MARK: New publishers

        @inlinable
        func receive(subscription: any Subscription, upstream index: Int) {
            guard let first = lock.withLock({ state.receive(subscription: subscription, child: index) }) else {
                subscription.cancel()
                return
            }
            subscription.request(first)
        }

        @inlinable
        func receive(_ input: NewPublisher.Output, upstream index: Int) -> Subscribers.Demand {
            let thread = ThreadIdentity.current
            let arrival = lock.withLock { state.arrive(input, child: index, thread: thread, holdingTurn: false) }
            return perform(arrival, for: input, from: index, thread: thread)
        }

        /// Delivers, buffers or drops a value from a new publisher, as `arrival` says.
        @inlinable
        func perform(
            _ arrival: State.Arrival, for input: NewPublisher.Output, from index: Int, thread: ThreadIdentity
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
                if more > 0 { lock.withLock { state.add(more) } }
                return unlimited ? .none : .max(1)
            }
        }

        /// Waits for the turn that another thread holds, then delivers or buffers the value.
        @inlinable
        @inline(never)
        func receiveAfterWaiting(_ input: NewPublisher.Output, index: Int, thread: ThreadIdentity)
            -> Subscribers.Demand
        {
            awaitTurn(lock: lock) { state.turn.attempt(by: thread, $0) }
            let arrival = lock.withLock { state.arrive(input, child: index, thread: thread, holdingTurn: true) }
            let more = perform(arrival, for: input, from: index, thread: thread)
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
                guard let next = lock.withLock({ state.childDidFinish(index) }) else { return }
                drainIfIdle()
                next?.request(.max(1))
            case .failure(let error):
                if lock.withLock({ state.childMayFail(index) }) { fail(error, sparing: index) }
            }
        }

        // MARK: Delivery

        /// Ends the stream with a failure: cancels the other new publishers' subscriptions and
        /// delivers the failure, or leaves it to the emitting thread.
        @inlinable
        func fail(_ error: Upstream.Failure, sparing failedChild: Int?) {
            let thread = ThreadIdentity.current
            guard let ending = lock.withLock({ state.fail(error, sparing: failedChild, thread: thread) }) else {
                return
            }
            if !ending.cancel.isEmpty {
                for subscription in ending.cancel { subscription.cancel() }
                if failedChild == nil { lock.withLock { state.isCancellingForUpstreamFailure = false } }
            }
            withExtendedLifetime(ending.released) {}
            if ending.deliver {
                downstream.receive(completion: .failure(error))
                releaseTurn()
            }
        }

        /// Gives the turn up, to the thread that has waited longest if one is parked.
        @inlinable
        func releaseTurn() {
            lock.withLock { state.turn.release() }?.unpark()
        }

        /// Takes the turn if nobody holds it, and drains.
        @inlinable
        func drainIfIdle() {
            let thread = ThreadIdentity.current
            if lock.withLock({ state.turn.takeIfFree(by: thread) }) { drain(adding: .none) }
        }

        /// Delivers buffered values while there is demand, then the completion if it is due. Runs on
        /// the thread holding the turn, which it gives up before returning.
        @inlinable
        func drain(adding initialDemand: Subscribers.Demand) {
            drainDeliveryTurn(to: downstream, adding: initialDemand, lock: lock, releaseTurn: releaseTurn) {
                state.next(adding: $0)
            }
        }

        // MARK: Subscription

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let thread = ThreadIdentity.current
            let (start, unleash) = lock.withLock { state.request(demand, thread: thread) }
            if start { drain(adding: .none) }
            for subscription in unleash { subscription.request(.unlimited) }
        }

        @inlinable
        func cancel() {
            guard let ending = lock.withLock({ state.cancel() }) else { return }
            for subscription in ending.cancel { subscription.cancel() }
            withExtendedLifetime(ending.released) {}
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
