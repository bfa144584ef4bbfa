extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    ///
    /// Each value, and the completion — a failure too — reaches the subscriber `interval` after
    /// upstream sent it, on `scheduler`. The subscription is not delayed, and the subscriber's requests
    /// and cancellation go straight upstream.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "delayed")
    /// let start = Date()
    /// let cancellable = Just("hello")
    ///     .delay(for: .milliseconds(500), scheduler: queue)
    ///     .sink { value in
    ///         print(value, String(format: "%.1f s later", Date().timeIntervalSince(start)))
    ///     }
    /// // Prints "hello 0.5 s later"
    /// ```
    ///
    /// Values are delivered in the order upstream sent them, one at a time, even by a scheduler that
    /// runs actions concurrently, and never while the subscriber is still in
    /// `receive(subscription:)`. Cancelling stops the delivery of what has not been delivered yet;
    /// once upstream has completed, as in Combine, cancelling has no effect and the rest, completion
    /// included, is still delivered.
    ///
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in delivering delayed events. The `Delay` publisher may
    ///     deliver elements this much sooner or later than the interval specifies; `nil` uses the
    ///     scheduler's minimum tolerance.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler's behavior.
    /// - Returns: A publisher that delays delivery of elements and completion to the downstream
    ///   receiver.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "delayed")
    /// let delayed = Publishers.Delay(
    ///     upstream: [1, 2].publisher, interval: .seconds(1), tolerance: .zero, scheduler: queue)
    /// let cancellable = delayed.sink { print($0) }
    /// // Prints "1" and "2" about a second later.
    /// ```
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride

        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver the delayed events.
        public let scheduler: Context

        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the downstream
        /// receiver.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - interval: The amount of time to delay.
        ///   - tolerance: The allowed tolerance in firing delayed events.
        ///   - scheduler: The scheduler to deliver the delayed events.
        ///   - options: Options relevant to the scheduler's behavior.
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the subscriber to the upstream publisher through a delaying subscriber.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
            let inner = Inner(
                downstream: subscriber, interval: interval, tolerance: tolerance, scheduler: scheduler,
                options: options)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Delay {
    /// The subscriber and subscription of `delay`.
    ///
    /// Each upstream event joins its ``ScheduledEventState`` and schedules one action `interval`
    /// later. An action that runs counts one more event due and delivers the oldest due events, so
    /// that deliveries keep upstream's order even if the scheduler runs two actions out of order or at
    /// the same time: the k-th action to run always finds the k-th event due, since the k-th event's
    /// date is no later than that of any event after it. Only one action delivers at a time; others
    /// leave their event to it. Nothing is delivered before the downstream has returned from
    /// `receive(subscription:)`.
    ///
    /// Like Combine's, it does not customize its description or mirror.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ScheduledEventDelivering
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let interval: Context.SchedulerTimeType.Stride

        @usableFromInline
        let tolerance: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state = ScheduledEventState<Downstream, Void>()

        @inlinable
        init(
            downstream: Downstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.downstream = downstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the release of the event just held `interval` from now.
        @inlinable
        func scheduleRelease() {
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options,
                TimelineRecording.carrying { self.release() })
        }

        @inlinable
        func scheduleDelivery() {
            scheduler.schedule(options: options, TimelineRecording.carrying { self.deliverReleased() })
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            forward(demand)
        }

        @inlinable
        func cancel() {
            cancelUpstream()
        }
    }
}
