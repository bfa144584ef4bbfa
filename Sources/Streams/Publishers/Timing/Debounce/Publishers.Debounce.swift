extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// Each element starts a wait of `dueTime` on the scheduler; an element that arrives before the
    /// wait is over replaces the waiting one and starts the wait again. When a wait ends, the element
    /// is published on the scheduler if the subscriber has demand, and dropped if it has none. Use it
    /// to act on bursty input, such as keystrokes, only once it settles.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let typing = PassthroughSubject<String, Never>()
    /// let cancellable = typing
    ///     .debounce(for: .milliseconds(300), scheduler: scheduler)
    ///     .sink { print("search:", $0) }
    ///
    /// typing.send("s")
    /// scheduler.advance(by: .milliseconds(100))
    /// typing.send("sw")
    /// scheduler.advance(by: .milliseconds(100))
    /// typing.send("swi")
    /// scheduler.advance(by: .milliseconds(300))  // quiet for 300 ms: "swi" out
    /// typing.send("swift")
    /// scheduler.advance(by: .milliseconds(300))
    /// // Prints:
    /// // search: swi
    /// // search: swift
    /// ```
    ///
    /// The operator asks its upstream for an unlimited number of elements. When the upstream
    /// completes, an element still waiting is dropped, as in Combine, and the completion is delivered
    /// on the scheduler.
    ///
    /// - Parameters:
    ///   - dueTime: The time the publisher should wait before publishing an element.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher's delivery of elements.
    /// - Returns: A publisher that publishes events only after a specified time elapses.
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between
    /// events.
    ///
    /// Create one with ``Publisher/debounce(for:scheduler:options:)``.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context

        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval elapses
        /// between events.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - dueTime: The amount of time the publisher should wait before publishing an element.
        ///   - scheduler: The scheduler on which this publisher delivers elements.
        ///   - options: Scheduler options that customize this publisher's delivery of elements.
        @inlinable
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the subscriber through a debouncing subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                Inner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.Debounce {
    /// The subscriber and subscription of a debounce: a thin class around its ``DebounceState``,
    /// which keeps the latest element and the timer that will publish it.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, PacedDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let dueTime: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state: DebounceState<Downstream>

        @inlinable
        init(
            downstream: Downstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.state = DebounceState(downstream: downstream)
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = lock.withLock({ state.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let started = lock.withLock({ state.receive(input) }) else { return .none }
            // A repeating schedule, as Combine uses: the first run publishes, and cancels the rest.
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: dueTime),
                interval: dueTime,
                tolerance: scheduler.minimumTolerance,
                options: options,
                TimelineRecording.carrying { self.due(started.generation) }
            )
            if !lock.withLock({ state.keep(timer, of: started.generation) }) { timer.cancel() }
            started.replaced?.cancel()
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (accepted, timer) = lock.withLock { state.receiveCompletion() }
            guard accepted else { return }
            timer?.cancel()
            scheduler.schedule {
                self.complete(completion)
            }
        }

        /// Delivers the upstream's completion, on the scheduler, unless cancelled meanwhile.
        @inlinable
        func complete(_ completion: Subscribers.Completion<Upstream.Failure>) {
            let thread = ThreadIdentity.current
            perform(lock.withLock { state.completionDue(completion, thread: thread) }, thread: thread)
        }

        /// The timer of `generation` ran out: publishes the element if no newer one came.
        @inlinable
        func due(_ generation: UInt64) {
            let thread = ThreadIdentity.current
            let (timer, duty) = lock.withLock { state.due(generation, thread: thread) }
            timer?.cancel()
            perform(duty, thread: thread)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { state.request(demand) }
        }

        @inlinable
        func cancel() {
            let (subscription, timer) = lock.withLock { state.cancel() }
            timer?.cancel()
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Debounce" }

        @usableFromInline
        var customMirror: Mirror {
            let (downstream, demand, value) = lock.withLock { (state.downstream, state.demand, state.currentValue) }
            return Mirror(
                self,
                children: [
                    "downstream": downstream as Any,
                    "downstreamDemand": demand,
                    "currentValue": value as Any,
                ])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
