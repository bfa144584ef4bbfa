extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without
    /// producing an element.
    ///
    /// The clock starts when the subscription arrives, starts again at the subscriber's first
    /// request, and again at each value. If `interval` passes on `scheduler` with no value, the
    /// publisher cancels the upstream and finishes — or fails with the error `customError` returns, if
    /// you provide one.
    ///
    /// ```swift
    /// enum FetchError: Error {
    ///     case timedOut
    /// }
    ///
    /// let queue = DispatchQueue(label: "timeout")
    /// let subject = PassthroughSubject<String, FetchError>()
    /// let cancellable = subject
    ///     .timeout(.seconds(5), scheduler: queue, customError: { .timedOut })
    ///     .sink(
    ///         receiveCompletion: { print($0) },
    ///         receiveValue: { print($0) })
    /// subject.send("first")
    /// // ... then five seconds without a value.
    /// // Prints:
    /// // first
    /// // failure(FetchError.timedOut)
    /// ```
    ///
    /// Values and the upstream's completion are delivered on `scheduler`, in order, one scheduled
    /// action each, and never while the subscriber is still in `receive(subscription:)`; a value still
    /// on its way when the time runs out is dropped. The scheduler must run its timers later, not
    /// while they are being set: as in Combine, `ImmediateScheduler` stops the program. Cancelling stops everything not yet delivered,
    /// the upstream's completion included.
    ///
    /// - Parameters:
    ///   - interval: The maximum time interval the publisher can go without emitting an element,
    ///     expressed in the time system of the scheduler.
    ///   - scheduler: The scheduler to deliver events on.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: A closure that executes if the publisher times out. The publisher sends the
    ///     failure returned by this closure to the subscriber as the reason for termination; without
    ///     it, the publisher finishes normally.
    /// - Returns: A publisher that terminates if the specified interval elapses with no events received
    ///   from the upstream publisher.
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that terminates if the upstream goes `interval` without producing an element.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "timeout")
    /// let silent = Empty<Int, Never>(completeImmediately: false)
    /// let timeout = Publishers.Timeout(
    ///     upstream: silent, interval: .milliseconds(100), scheduler: queue, options: nil, customError: nil)
    /// let cancellable = timeout.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints "finished" a tenth of a second later.
    /// ```
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum time interval the publisher can go without emitting an element, expressed in
        /// the time system of the scheduler.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver events on.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// A closure that returns the error to fail with when the publisher times out; without it, the
        /// publisher finishes.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that terminates if the upstream goes `interval` without producing an
        /// element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - interval: The maximum time interval the publisher can go without emitting an element.
        ///   - scheduler: The scheduler to deliver events on.
        ///   - options: Scheduler options that customize the delivery of elements.
        ///   - customError: A closure that returns the error to fail with on timeout, or `nil` to
        ///     finish.
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches the subscriber to the upstream publisher through a timing subscriber.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
            let inner = Inner(
                downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
                customError: customError)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Timeout {
    /// The subscriber and subscription of `timeout`.
    ///
    /// As in Combine, the subscription, the first request and each value start a new timer, and each
    /// value and the upstream's completion reach the downstream through an action of their own on the
    /// scheduler. Its state, a ``ScheduledEventState`` with a ``TimeoutDeadline``, decides.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ScheduledEventDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let interval: Context.SchedulerTimeType.Stride

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let customError: (() -> Upstream.Failure)?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var state = ScheduledEventState<Downstream, TimeoutDeadline>(deadline: TimeoutDeadline())

        @inlinable
        init(
            downstream: Downstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Upstream.Failure)?
        ) {
            self.downstream = downstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let thread = ThreadIdentity.current
            guard let generation = lock.withLock({ state.receiveTimed(subscription: subscription, thread: thread) })
            else {
                subscription.cancel()
                return
            }
            startTimer(generation: generation)
            lock.withLock { state.deadline.settingUp = .none }
            downstream.receive(subscription: self)
            subscriptionDelivered()
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            enqueue(.value(input))
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            enqueue(.completion(completion))
        }

        /// Holds an upstream event, restarts the timer after a value, and schedules the action that
        /// releases the event.
        @inlinable
        func enqueue(_ event: ScheduledEvent<Upstream.Output, Upstream.Failure>) {
            guard let (stopped, restart) = lock.withLock({ state.enqueueTimed(event) }) else { return }
            stopped?.cancel()
            if let restart { startTimer(generation: restart) }
            scheduleRelease()
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            let (subscription, restart) = lock.withLock { state.request() }
            guard let subscription else { return }
            if let (stopped, generation) = restart {
                stopped?.cancel()
                startTimer(generation: generation)
            }
            subscription.request(demand)
        }

        @inlinable
        func cancel() {
            let (subscription, stopped, discarded) = lock.withLock { state.cancelTimed() }
            // The undelivered values are released here, outside the lock.
            withExtendedLifetime(discarded) {}
            stopped?.cancel()
            subscription?.cancel()
        }

        // MARK: The clock

        /// Schedules the timer of `generation`, `interval` from now, and keeps it unless it is stale
        /// by then. The scheduler is asked in Combine's order: its time, its tolerance, the timer.
        @inlinable
        func startTimer(generation: Int) {
            let cancellable = scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: interval,
                tolerance: scheduler.minimumTolerance, options: options
            ) {
                self.timerFired(generation: generation)
            }
            if !lock.withLock({ state.keep(cancellable, of: generation) }) { cancellable.cancel() }
        }

        /// The timer of `generation` fired: unless it is stale, the time has run out.
        @inlinable
        func timerFired(generation: Int) {
            let thread = ThreadIdentity.current
            let outcome = lock.withLock { state.timerFired(generation: generation, thread: thread) }
            guard let (subscription, stopped, discarded) = outcome else { return }
            withExtendedLifetime(discarded) {}
            stopped?.cancel()
            subscription.cancel()
            let completion: Subscribers.Completion<Upstream.Failure> = customError.map { .failure($0()) } ?? .finished
            if lock.withLock({ state.timedOut(completion) }) { deliverReleased() }
        }

        // MARK: Delivery

        @inlinable
        func scheduleRelease() {
            scheduler.schedule(options: options, TimelineRecording.carrying { self.release() })
        }

        @inlinable
        func scheduleDelivery() {
            scheduler.schedule(options: options, TimelineRecording.carrying { self.deliverReleased() })
        }

        @usableFromInline
        var description: String { "Timeout" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
