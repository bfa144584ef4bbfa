extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    ///
    /// For each value, the publisher emits how much time passed on `scheduler`'s clock since the
    /// previous value — or, for the first value, since the subscription. It reads the clock with the
    /// scheduler's `now` and schedules nothing: values are published synchronously, as they arrive.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "measure")
    /// let subject = PassthroughSubject<String, Never>()
    /// let cancellable = subject
    ///     .measureInterval(using: queue)
    ///     .sink { print($0.magnitude / 1_000_000, "ms") }
    /// // A quarter of a second after subscribing:
    /// subject.send("a")
    /// // One second later:
    /// subject.send("b")
    /// // Prints, give or take a millisecond:
    /// // 250 ms
    /// // 1000 ms
    /// ```
    ///
    /// The completion passes through at once.
    ///
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements; `measureInterval` schedules
    ///     nothing, so it does not use them.
    /// - Returns: A publisher that emits elements representing the time interval between the elements
    ///   it receives.
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an upstream
    /// publisher.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.main
    /// let intervals = Publishers.MeasureInterval(upstream: [1, 2].publisher, scheduler: scheduler)
    /// let cancellable = intervals.sink { print($0.magnitude >= 0) }
    /// // Prints "true" twice: the sequence sends both values at once.
    /// ```
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the scheduler's time interval.
        public typealias Output = Context.SchedulerTimeType.Stride

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events received from
        /// an upstream publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: A scheduler to use for tracking the timing of events.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches the subscriber to the upstream publisher through a measuring subscriber.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Failure == S.Failure, S.Input == Context.SchedulerTimeType.Stride {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    /// The subscriber and subscription of `measureInterval`.
    ///
    /// As in Combine, it returns no demand from `receive(_:)`: what the downstream asks for after a
    /// value is requested from the upstream subscription.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: when the previous value, or the subscription, arrived.
        @usableFromInline
        var last: Context.SchedulerTimeType?

        @inlinable
        init(downstream: Downstream, scheduler: Context) {
            self.downstream = downstream
            self.scheduler = scheduler
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let now = scheduler.now
            let accepted = lock.withLock {
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                last = now
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // As in Combine, the clock is not read once the subscription has ended.
            guard lock.withLock({ status.isSubscribed && last != nil }) else { return .none }
            let now = scheduler.now
            let previous = lock.withLock { () -> Context.SchedulerTimeType? in
                guard status.isSubscribed, let previous = last else { return nil }
                last = now
                return previous
            }
            guard let previous else { return .none }
            let demand = downstream.receive(previous.distance(to: now))
            if demand != .none, let subscription = lock.withLock({ status.subscription }) {
                subscription.request(demand)
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let live = lock.withLock { () -> Bool in
                guard status.isSubscribed else { return false }
                status = .terminal
                last = nil
                return true
            }
            guard live else { return }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { status.subscription }?.request(demand)
        }

        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                guard let subscription = status.subscription else { return nil }
                status = .terminal
                last = nil
                return subscription
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "MeasureInterval" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
