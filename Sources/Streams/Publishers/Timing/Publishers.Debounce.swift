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
    /// scheduler.advance(by: .milliseconds(300))  // 300 ms of quiet: "swi" goes out.
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
            upstream.receive(
                subscriber: Inner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.Debounce {
    /// The subscriber and subscription of a debounce: it keeps the latest element and the timer that
    /// will publish it.
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
        let dueTime: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        // Everything below is guarded by `lock`.

        /// Released once the completion is delivered or the subscription is cancelled.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Downstream?

        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        @usableFromInline
        @exclusivity(unchecked)
        var demand = Subscribers.Demand.none

        /// The latest element from upstream.
        @usableFromInline
        @exclusivity(unchecked)
        var currentValue: Upstream.Output?

        /// Counts elements: each one's timer publishes it only if no newer one came.
        @usableFromInline
        @exclusivity(unchecked)
        var generation: UInt64 = 0

        /// The generation whose timer is waiting to publish `currentValue`, if any.
        @usableFromInline
        @exclusivity(unchecked)
        var armedGeneration: UInt64?

        /// The waiting timer, once the scheduler has returned it.
        @usableFromInline
        @exclusivity(unchecked)
        var timer: (any Cancellable)?

        @usableFromInline
        @exclusivity(unchecked)
        var delivery = PacedDelivery<Event>()

        @inlinable
        init(
            downstream: Downstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.downstream = downstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
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
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let started = lock.withLock { () -> (generation: UInt64, previous: (any Cancellable)?)? in
                guard status.isSubscribed else { return nil }
                generation &+= 1
                currentValue = input
                armedGeneration = generation
                return (generation, self.timer.take())
            }
            guard let started else { return .none }
            // A repeating schedule, as Combine uses: the first run publishes, and cancels the rest.
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: dueTime),
                interval: dueTime,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) {
                self.due(started.generation)
            }
            let isCurrent = lock.withLock { () -> Bool in
                guard armedGeneration == started.generation else { return false }
                self.timer = timer
                return true
            }
            if !isCurrent { timer.cancel() }
            started.previous?.cancel()
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (accepted, timer) = lock.withLock { () -> (Bool, (any Cancellable)?) in
                guard status.isSubscribed else { return (false, nil) }
                status = .terminal
                armedGeneration = nil
                return (true, self.timer.take())
            }
            guard accepted else { return }
            timer?.cancel()
            scheduler.schedule {
                self.complete(completion)
            }
        }

        /// The timer of `generation` ran out: publishes the element if no newer one came.
        ///
        /// The element is queued for delivery in the same critical section that takes it: otherwise,
        /// on a scheduler that runs actions on several threads, a newer element could be taken and
        /// queued by its own timer in between, and go out first.
        @inlinable
        func due(_ generation: UInt64) {
            let (timer, duty) = lock.withLock { () -> ((any Cancellable)?, PacedDelivery<Event>.Duty) in
                guard status.isSubscribed, armedGeneration == generation, let value = currentValue else {
                    return (nil, .none)
                }
                armedGeneration = nil
                let timer = self.timer.take()
                guard demand > 0 else { return (timer, .none) }
                demand -= 1
                return (timer, delivery.enqueue(.value(value)))
            }
            timer?.cancel()
            perform(duty)
        }

        /// Delivers the upstream's completion, on the scheduler, unless cancelled meanwhile.
        @inlinable
        func complete(_ completion: Subscribers.Completion<Upstream.Failure>) {
            let duty = lock.withLock { () -> PacedDelivery<Event>.Duty in
                guard downstream != nil else { return .none }
                return delivery.enqueue(.completion(completion))
            }
            perform(duty)
        }

        /// The latest element goes with the completion.
        @inlinable
        func releaseAtCompletion() {
            currentValue = nil
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock {
                guard status.isSubscribed else { return }
                self.demand += demand
            }
        }

        @inlinable
        func cancel() {
            let (subscription, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
                let subscription = status.subscription
                status = .terminal
                downstream = nil
                currentValue = nil
                armedGeneration = nil
                delivery.discard()
                return (subscription, self.timer.take())
            }
            timer?.cancel()
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Debounce" }

        @usableFromInline
        var customMirror: Mirror {
            let (downstream, demand, value) = lock.withLock { (self.downstream, self.demand, currentValue) }
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
