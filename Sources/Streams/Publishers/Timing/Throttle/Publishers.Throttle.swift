extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the
    /// specified time interval.
    ///
    /// The first element goes out at once (on the scheduler, at the instant it arrived). After an
    /// element goes out, the next one waits until `interval` has passed since then; meanwhile,
    /// with `latest` set to `true` each new element replaces the waiting one, and with `false` the
    /// first one keeps its place and the others are dropped. An element that arrives after the
    /// interval has already passed goes out at once.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let taps = PassthroughSubject<Int, Never>()
    /// let cancellable = taps
    ///     .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
    ///     .sink { print($0) }
    ///
    /// taps.send(1)                          // 0.0 s: goes out at once...
    /// scheduler.advance()                   // ...when the scheduler runs: prints 1.
    /// taps.send(2)                          // Waits for the end of the interval.
    /// scheduler.advance(by: .milliseconds(500))
    /// taps.send(3)                          // Replaces 2 (with latest: false, 2 would stay).
    /// scheduler.advance(by: .milliseconds(500))  // 1.0 s: prints 3.
    /// // Prints:
    /// // 1
    /// // 3
    /// ```
    ///
    /// The operator asks its upstream for an unlimited number of elements and drops those that
    /// arrive while the subscriber has no demand. A completion waits for an element already waiting,
    /// then goes out with it; otherwise it goes out at once, on the scheduler.
    ///
    /// - Parameters:
    ///   - interval: The interval at which to find and emit either the most recent or the first
    ///     element, expressed in the time system of the scheduler.
    ///   - scheduler: The scheduler on which to publish elements.
    ///   - latest: A Boolean value that indicates whether to publish the most recent element. If
    ///     `false`, the publisher emits the first element received during the interval.
    /// - Returns: A publisher that emits either the most-recent or first element received during the
    ///   specified interval.
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    ///
    /// Create one with ``Publisher/throttle(for:scheduler:latest:)``.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which to publish elements.
        public let scheduler: Context

        /// A Boolean value indicating whether to publish the most recent element.
        ///
        /// If `false`, the publisher emits the first element received during the interval.
        public let latest: Bool

        /// Creates a publisher that publishes either the most-recent or first element published by
        /// the upstream publisher in a specified time interval.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - interval: The interval in which to find and emit the most recent element.
        ///   - scheduler: The scheduler on which to publish elements.
        ///   - latest: A Boolean value indicating whether to publish the most recent element.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches the subscriber through a throttling subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                Inner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publishers.Throttle {
    /// The subscriber and subscription of a throttle: a thin class around its ``ThrottleState``,
    /// which keeps the element waiting for its turn and the time of the last emission.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, PacedDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let interval: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let latest: Bool

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state: ThrottleState<Downstream, Context.SchedulerTimeType>

        @inlinable
        init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.state = ThrottleState(downstream: downstream)
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
            // Combine reads the clock when the subscriber is made and on each event from upstream
            // while subscribed; so does this, so that a scheduler sees the same calls.
            _ = scheduler.now
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard let downstream = lock.withLock({ state.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            _ = scheduler.now
            // Combine asks upstream first, then hands the subscription downstream.
            subscription.request(.unlimited)
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let (live, scheduling) = lock.withLock { state.receive(input, latest: latest) }
            guard live else { return .none }
            let now = scheduler.now
            guard let last = scheduling else { return .none }
            let emissionTime = last.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
            if emissionTime == now {
                scheduler.schedule { [weak self] in self?.emit() }
            } else {
                scheduler.schedule(after: emissionTime) { [weak self] in self?.emit() }
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard let mustSchedule = lock.withLock({ state.receive(completion: completion) }) else { return }
            _ = scheduler.now
            if mustSchedule {
                scheduler.schedule { [weak self] in self?.emit() }
            }
        }

        /// Sends what is scheduled: the waiting element, the completion, or both.
        @inlinable
        func emit() {
            let now = lock.withLock { state.emissionReadsClock } ? scheduler.now : nil
            let thread = ThreadIdentity.current
            perform(lock.withLock { state.emit(now: now, thread: thread) }, thread: thread)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            lock.withLock { state.request(demand) }
        }

        @inlinable
        func cancel() {
            lock.withLock { state.cancel() }?.cancel()
        }

        @usableFromInline
        var description: String { "Throttle" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
