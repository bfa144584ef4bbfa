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
            upstream.receive(
                subscriber: Inner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publishers.Throttle {
    /// The subscriber and subscription of a throttle: it keeps the element waiting for its turn and
    /// the time of the last emission.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, PacedDownstreamDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        /// What the inner owes its downstream.
        @usableFromInline
        typealias Event = ScheduledEvent<Upstream.Output, Upstream.Failure>

        @usableFromInline
        let interval: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let latest: Bool

        @usableFromInline
        let lock = Lock()

        // Everything below is guarded by `lock`.

        /// Released once the completion is delivered or the subscription is cancelled.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Downstream?

        /// Stays `subscribed` after the upstream completes, until the completion goes out, so that a
        /// cancel in between still reaches upstream, as in Combine.
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        @usableFromInline
        @exclusivity(unchecked)
        var demand = Subscribers.Demand.none

        /// The element scheduled to go out.
        @usableFromInline
        @exclusivity(unchecked)
        var pendingInput: Upstream.Output?

        /// The upstream's completion, scheduled to go out.
        @usableFromInline
        @exclusivity(unchecked)
        var pendingCompletion: Subscribers.Completion<Upstream.Failure>?

        /// When the last element went out.
        @usableFromInline
        @exclusivity(unchecked)
        var lastEmissionTime: Context.SchedulerTimeType?

        @usableFromInline
        @exclusivity(unchecked)
        var delivery = PacedDelivery<Event>()

        @inlinable
        init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.downstream = downstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
            // Combine reads the clock when the subscriber is made and on each event from upstream
            // while subscribed; so does this, so that a scheduler sees the same calls.
            _ = scheduler.now
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let downstream = lock.withLock { () -> Downstream? in
                guard case .awaitingSubscription = status else { return nil }
                status = .subscribed(subscription)
                return self.downstream
            }
            guard let downstream else {
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
            // `.some(last emission)` when the element is to be scheduled.
            let (subscribed, scheduling) = lock.withLock { () -> (Bool, Context.SchedulerTimeType??) in
                guard status.isSubscribed, pendingCompletion == nil else { return (false, nil) }
                guard demand > 0 else { return (true, nil) }
                if pendingInput != nil {
                    if latest { pendingInput = input }
                    return (true, nil)
                }
                demand -= 1
                pendingInput = input
                // Stays as it is until the element is emitted: nothing else is scheduled meanwhile.
                return (true, .some(lastEmissionTime))
            }
            guard subscribed else { return .none }
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
            let mustSchedule = lock.withLock { () -> Bool? in
                guard status.isSubscribed, pendingCompletion == nil else { return nil }
                pendingCompletion = completion
                // An element already scheduled takes the completion along when it goes out.
                return pendingInput == nil
            }
            guard let mustSchedule else { return }
            _ = scheduler.now
            if mustSchedule {
                scheduler.schedule { [weak self] in self?.emit() }
            }
        }

        /// Sends what is scheduled: the waiting element, the completion, or both.
        @inlinable
        func emit() {
            // As in Combine, the clock is read only when an element goes out without the completion.
            let readsClock = lock.withLock { status.isSubscribed && pendingInput != nil && pendingCompletion == nil }
            let now = readsClock ? scheduler.now : nil
            let duty = lock.withLock { () -> PacedDelivery<Event>.Duty in
                guard status.isSubscribed else { return .none }
                let input = pendingInput.take()
                let completion = pendingCompletion.take()
                var duty = PacedDelivery<Event>.Duty.none
                if let input {
                    if completion == nil, let now { lastEmissionTime = now }
                    duty = Swift.max(duty, delivery.enqueue(.value(input)))
                }
                if let completion {
                    status = .terminal
                    duty = Swift.max(duty, delivery.enqueue(.completion(completion)))
                }
                return duty
            }
            perform(duty)
        }

        /// Nothing is held for later elements.
        @inlinable
        func releaseAtCompletion() {}

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            lock.withLock {
                guard status.isSubscribed, pendingCompletion == nil else { return }
                self.demand += demand
            }
        }

        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                let subscription = status.subscription
                status = .terminal
                downstream = nil
                pendingInput = nil
                pendingCompletion = nil
                delivery.discard()
                return subscription
            }
            subscription?.cancel()
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
