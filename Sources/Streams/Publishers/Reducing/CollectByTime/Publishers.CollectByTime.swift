extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// At the end of each interval of the strategy's scheduler, the publisher sends an array of the
    /// elements it collected during the interval; an interval that collected nothing sends nothing.
    /// With ``Publishers/TimeGroupingStrategy/byTimeOrCount(_:_:_:)``, an array also goes out as soon
    /// as it holds the maximum count (on the scheduler), and the interval starts again from then.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let readings = PassthroughSubject<Int, Never>()
    /// let cancellable = readings
    ///     .collect(.byTimeOrCount(scheduler, .seconds(1), 3))
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    ///
    /// readings.send(1)
    /// readings.send(2)
    /// scheduler.advance(by: .seconds(1))    // The interval ends: prints [1, 2].
    /// readings.send(3)
    /// readings.send(4)
    /// readings.send(5)                      // Three collected...
    /// scheduler.advance()                   // ...go out at once: prints [3, 4, 5].
    /// readings.send(6)
    /// readings.send(completion: .finished)  // What is left goes out with the completion...
    /// scheduler.advance()                   // ...on the scheduler: prints [6], then finished.
    /// ```
    ///
    /// If the upstream publisher finishes, this publisher sends the elements collected since the
    /// last array, then finishes. If the upstream publisher fails, this publisher drops them and
    /// forwards the error. Both happen on the scheduler.
    ///
    /// Demand: with ``Publishers/TimeGroupingStrategy/byTime(_:_:)`` this publisher asks its
    /// upstream for one element for each request it receives and for one more after each element, so
    /// elements flow freely once the subscriber has asked for anything; with
    /// ``Publishers/TimeGroupingStrategy/byTimeOrCount(_:_:_:)``, a request for `.max(n)` arrays
    /// asks the upstream for `.max(n * count)` elements. An interval that ends while the subscriber
    /// has no demand keeps what it collected for a later one.
    ///
    /// - Parameters:
    ///   - strategy: The timing group strategy used by the operator to collect and publish elements.
    ///   - options: Scheduler options to use for the strategy.
    /// - Returns: A publisher that collects elements by a given strategy, and emits a single array of
    ///   the collection.
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A strategy for collecting received elements.
    ///
    /// ```swift
    /// let everySecond = Publishers.TimeGroupingStrategy.byTime(RunLoop.main, .seconds(1))
    /// let everySecondOrTen = Publishers.TimeGroupingStrategy.byTimeOrCount(RunLoop.main, .seconds(1), 10)
    /// ```
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A grouping that collects and periodically publishes items.
        case byTime(Context, Context.SchedulerTimeType.Stride)

        /// A grouping that collects and publishes items periodically or when a buffer reaches a
        /// maximum size.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// Create one with ``Publisher/collect(_:options:)``.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: arrays of the upstream's elements.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The strategy with which to collect and publish elements.
        public let strategy: Publishers.TimeGroupingStrategy<Context>

        /// Scheduler options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that buffers and periodically publishes its items.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - strategy: The strategy with which to collect and publish elements.
        ///   - options: Scheduler options to use for the strategy.
        @inlinable
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches the subscriber through a collecting subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            switch strategy {
            case .byTime(let scheduler, let stride):
                upstream.subscribe(
                    Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: nil, options: options))
            case .byTimeOrCount(let scheduler, let stride, let count):
                precondition(count > 0, "collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got \(count)")
                upstream.subscribe(
                    Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: count, options: options))
            }
        }
    }
}

extension Publishers.CollectByTime {
    /// The subscriber and subscription of a time-grouping collect: a thin class around its
    /// ``CollectByTimeState``, which keeps the buffer and the repeating timer that empties it.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, PacedDelivering, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias State = CollectByTimeState<Downstream, Upstream.Output>

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let stride: Context.SchedulerTimeType.Stride

        /// The maximum size of an array, for `byTimeOrCount`.
        @usableFromInline
        let count: Int?

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state: State

        @inlinable
        init(
            downstream: Downstream,
            scheduler: Context,
            stride: Context.SchedulerTimeType.Stride,
            count: Int?,
            options: Context.SchedulerOptions?
        ) {
            self.state = State(downstream: downstream, count: count)
            self.scheduler = scheduler
            self.stride = stride
            self.count = count
            self.options = options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = lock.withLock({ state.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            restartTimer()
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let (accepted, isFull) = lock.withLock { state.receive(input) }
            guard accepted else { return .none }
            if isFull {
                // A full array starts a new interval, and goes out on the scheduler.
                restartTimer()
                scheduleFullDelivery()
            }
            // By time, each element asks for one more, as in Combine.
            return count == nil ? .max(1) : .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (accepted, timer) = lock.withLock { state.receive(completion: completion) }
            guard accepted else { return }
            timer?.cancel()
            scheduleFlush()
        }

        /// After the upstream completed: sends, on the scheduler, what is left and the completion.
        @inlinable
        func scheduleFlush() {
            scheduler.schedule(options: options) {
                let thread = ThreadIdentity.current
                self.perform(self.lock.withLock { self.state.startFlushing(thread: thread) }, thread: thread)
            }
        }

        @inlinable
        func scheduleFullDelivery() {
            scheduler.schedule(options: options) {
                let thread = ThreadIdentity.current
                self.perform(self.lock.withLock { self.state.fullDeliveryDue(thread: thread) }, thread: thread)
                // Values that came in meanwhile may have filled another array.
                if self.lock.withLock({ self.state.claimFullDelivery() }) {
                    self.scheduleFullDelivery()
                }
            }
        }

        /// Starts the repeating timer from now, replacing the running one.
        @inlinable
        func restartTimer() {
            let (generation, previous) = lock.withLock { state.restartTimer() }
            previous?.cancel()
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: stride),
                interval: stride,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) {
                self.tick()
            }
            if !lock.withLock({ state.keep(timer, of: generation) }) { timer.cancel() }
        }

        /// One interval ended: what it collected goes out, if the downstream wants it.
        @inlinable
        func tick() {
            let thread = ThreadIdentity.current
            perform(lock.withLock { state.tick(thread: thread) }, thread: thread)
        }

        /// Hands an array or the completion to downstream, and passes on the demand it answers with.
        @inlinable
        func deliver(_ event: State.Event, to downstream: Downstream) {
            switch event {
            case .timed(let array):
                let additional = downstream.receive(array)
                if additional > 0 { addDemand(additional, upstream: nil, isDelivering: true) }
            case .full(let array):
                let additional = downstream.receive(array)
                if additional > 0 {
                    addDemand(additional, upstream: additional * (count ?? 1), isDelivering: true)
                }
            case .completion(let completion):
                downstream.receive(completion: completion)
            }
        }

        /// Adds demand for arrays and asks upstream for `upstreamDemand` elements, if given.
        @inlinable
        func addDemand(
            _ additional: Subscribers.Demand, upstream upstreamDemand: Subscribers.Demand?, isDelivering: Bool
        ) {
            let thread = ThreadIdentity.current
            let change = lock.withLock { state.add(additional, isDelivering: isDelivering, thread: thread) }
            if let upstreamDemand { change.subscription?.request(upstreamDemand) }
            if change.scheduleFull { scheduleFullDelivery() }
            if change.scheduleFlush { scheduleFlush() }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            addDemand(demand, upstream: count.map { demand * $0 } ?? .max(1), isDelivering: false)
        }

        @inlinable
        func cancel() {
            let (subscription, timer) = lock.withLock { state.cancel() }
            timer?.cancel()
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "CollectByTime" }

        @usableFromInline
        var customMirror: Mirror {
            let (downstream, buffer) = lock.withLock { (state.downstream, state.buffer) }
            return Mirror(self, children: ["downstream": downstream as Any, "buffer": buffer])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
