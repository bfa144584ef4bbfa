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
    /// Values and the upstream's completion are delivered on `scheduler`, in order, and never while
    /// the subscriber is still in `receive(subscription:)`; a value still on its way when the time
    /// runs out is dropped. Cancelling stops everything not yet delivered,
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
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.Timeout {
    /// The subscriber and subscription of `timeout`.
    ///
    /// Deliveries work as in `receive(on:)`: events are buffered and drained on the scheduler, many per
    /// hop. Activity only moves `deadline` forward; one timer waits for it. When the timer fires early
    /// because the deadline moved, it is replaced by one for the new deadline, so a busy stream costs a
    /// clock reading per value, not a timer. A timer replaced or stopped is recognized by its
    /// generation and ignored should it still fire.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ScheduledBatchDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        typealias Event = ScheduledEvent<Upstream.Output, Upstream.Failure>

        @usableFromInline
        typealias Time = Context.SchedulerTimeType

        /// What a timer that fired decided, under the lock.
        @usableFromInline
        enum TimerDecision {
            /// A stale timer: nothing to do.
            case ignore
            /// The stream ended: stop the timer.
            case stop((any Cancellable)?)
            /// The deadline moved: replace the timer with one for the new deadline.
            case rearm((any Cancellable)?, Time, Int)
            /// The time ran out: stop the timer and cancel upstream.
            case timeOut((any Cancellable)?, (any Subscription)?, ContiguousArray<Event>)
        }

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

        /// Guarded by `lock`. Stays `subscribed` until a completion is delivered, the time runs out or
        /// the subscription is cancelled.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: upstream has completed; its completion is on its way and the clock is
        /// stopped.
        @usableFromInline
        var upstreamCompleted = false

        /// Guarded by `lock`: events not yet taken by a drain, oldest first.
        @usableFromInline
        var pending = ContiguousArray<Event>()

        /// Guarded by `lock`: a drain is scheduled or running — or the downstream has not returned
        /// from `receive(subscription:)` yet, and new events wait for it.
        @usableFromInline
        var drainScheduled = true

        /// Guarded by `lock`: the completion to deliver because the time ran out.
        @usableFromInline
        var timeoutCompletion: Subscribers.Completion<Upstream.Failure>?

        /// Guarded by `lock`: when the time runs out, unless something happens first.
        @usableFromInline
        var deadline: Time?

        /// Guarded by `lock`: whether the downstream has made its first request.
        @usableFromInline
        var requested = false

        /// Guarded by `lock`: a timer is waiting for the deadline.
        @usableFromInline
        var timerArmed = false

        /// Guarded by `lock`: the generation of the current timer; older timers are stale.
        @usableFromInline
        var timerGeneration = 0

        /// Guarded by `lock`: the current timer, once scheduled.
        @usableFromInline
        var timer: (any Cancellable)?

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

        /// Moves the deadline to `next`, never backwards. Call it with `lock` held.
        @inlinable
        func extendDeadline(to next: Time) {
            if let current = deadline, current > next { return }
            deadline = next
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let next = scheduler.now.advanced(by: interval)
            let accepted = lock.withLock {
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                extendDeadline(to: next)
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            startDelivering()
            startTimer()
        }

        /// The downstream is ready: schedules a drain for what arrived meanwhile, if anything did.
        @inlinable
        func startDelivering() {
            let scheduleDrain = lock.withLock { () -> Bool in
                guard status.isSubscribed, !pending.isEmpty else {
                    drainScheduled = false
                    return false
                }
                return true
            }
            if scheduleDrain {
                scheduler.schedule(options: options) { self.drain() }
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let next = scheduler.now.advanced(by: interval)
            let scheduleDrain = lock.withLock { () -> Bool in
                guard status.isSubscribed, !upstreamCompleted else { return false }
                extendDeadline(to: next)
                pending.append(.value(input))
                guard !drainScheduled else { return false }
                drainScheduled = true
                return true
            }
            if scheduleDrain {
                scheduler.schedule(options: options) { self.drain() }
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (live, scheduleDrain, stopped) = lock.withLock { () -> (Bool, Bool, (any Cancellable)?) in
                guard status.isSubscribed, !upstreamCompleted else { return (false, false, nil) }
                upstreamCompleted = true
                timerArmed = false
                pending.append(.completion(completion))
                let stopped = timer.take()
                guard !drainScheduled else { return (true, false, stopped) }
                drainScheduled = true
                return (true, true, stopped)
            }
            guard live else { return }
            stopped?.cancel()
            if scheduleDrain {
                scheduler.schedule(options: options) { self.drain() }
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            let (subscription, first) = lock.withLock { () -> ((any Subscription)?, Bool) in
                guard let subscription = status.subscription else { return (nil, false) }
                let first = !requested
                requested = true
                return (subscription, first)
            }
            guard let subscription else { return }
            if first {
                let next = scheduler.now.advanced(by: interval)
                lock.withLock {
                    guard status.isSubscribed, !upstreamCompleted else { return }
                    extendDeadline(to: next)
                }
            }
            subscription.request(demand)
        }

        @inlinable
        func cancel() {
            let (subscription, stopped, discarded) = lock.withLock {
                () -> ((any Subscription)?, (any Cancellable)?, ContiguousArray<Event>) in
                // A time-out that has not gone out yet does not go out after the cancel.
                timeoutCompletion = nil
                guard let subscription = status.subscription else { return (nil, nil, []) }
                status = .terminal
                timerArmed = false
                var discarded = ContiguousArray<Event>()
                swap(&discarded, &pending)
                return (subscription, timer.take(), discarded)
            }
            // The undelivered values are released here, outside the lock.
            withExtendedLifetime(discarded) {}
            stopped?.cancel()
            subscription?.cancel()
        }

        // MARK: The clock

        /// Arms the first timer, unless the stream already ended.
        @inlinable
        func startTimer() {
            let armed = lock.withLock { () -> (Time, Int)? in
                guard status.isSubscribed, !upstreamCompleted, !timerArmed, let deadline else { return nil }
                timerArmed = true
                timerGeneration += 1
                return (deadline, timerGeneration)
            }
            guard let (date, generation) = armed else { return }
            schedule(at: date, generation: generation)
        }

        /// Schedules the timer of `generation` for `date` and keeps it, unless it is stale by then.
        @inlinable
        func schedule(at date: Time, generation: Int) {
            let cancellable = scheduler.schedule(
                after: date, interval: interval, tolerance: scheduler.minimumTolerance, options: options
            ) {
                self.timerFired(generation: generation)
            }
            let stale = lock.withLock { () -> Bool in
                guard timerArmed, timerGeneration == generation else { return true }
                timer = cancellable
                return false
            }
            if stale { cancellable.cancel() }
        }

        /// The timer of `generation` fired: time out if the deadline has passed, or wait for it.
        @inlinable
        func timerFired(generation: Int) {
            let now = scheduler.now
            let decision = lock.withLock { () -> TimerDecision in
                guard timerArmed, timerGeneration == generation else { return .ignore }
                guard status.isSubscribed, !upstreamCompleted, let deadline else {
                    timerArmed = false
                    return .stop(timer.take())
                }
                if now < deadline {
                    timerGeneration += 1
                    return .rearm(timer.take(), deadline, timerGeneration)
                }
                timerArmed = false
                let subscription = status.subscription
                status = .terminal
                var discarded = ContiguousArray<Event>()
                swap(&discarded, &pending)
                return .timeOut(timer.take(), subscription, discarded)
            }
            switch decision {
            case .ignore:
                return
            case .stop(let stopped):
                stopped?.cancel()
            case .rearm(let replaced, let date, let next):
                replaced?.cancel()
                schedule(at: date, generation: next)
            case .timeOut(let stopped, let subscription, let discarded):
                withExtendedLifetime(discarded) {}
                stopped?.cancel()
                subscription?.cancel()
                timeOut()
            }
        }

        /// Sends the timeout's completion downstream, now or right after the delivery under way.
        @inlinable
        func timeOut() {
            let completion: Subscribers.Completion<Upstream.Failure> = customError.map { .failure($0()) } ?? .finished
            let runNow = lock.withLock { () -> Bool in
                timeoutCompletion = completion
                guard !drainScheduled else { return false }
                drainScheduled = true
                return true
            }
            if runNow { drain() }
        }

        // MARK: Delivery

        /// What a drain does next.
        @usableFromInline
        enum DrainStep {
            case deliver
            case timedOut(Subscribers.Completion<Upstream.Failure>)
            case yield
            case stop
        }

        /// Delivers everything buffered, batch after batch, and the timeout's completion if the time
        /// ran out.
        ///
        /// After `ScheduledDeliveryLimits.valuesPerHop` values it hands what is left to a new action,
        /// so that a stream that never pauses does not keep the scheduler from its other work.
        @inlinable
        func drain() {
            var batch = ContiguousArray<Event>()
            var delivered = 0
            while true {
                let step = lock.withLock { () -> DrainStep in
                    if let completion = timeoutCompletion.take() { return .timedOut(completion) }
                    guard status.isSubscribed, !pending.isEmpty else {
                        drainScheduled = false
                        if pending.capacity > ScheduledDeliveryLimits.retainedCapacity { pending = [] }
                        return .stop
                    }
                    guard delivered < ScheduledDeliveryLimits.valuesPerHop else { return .yield }
                    swap(&batch, &pending)
                    return .deliver
                }
                switch step {
                case .stop:
                    return
                case .yield:
                    scheduler.schedule(options: options) { self.drain() }
                    return
                case .timedOut(let completion):
                    downstream.receive(completion: completion)
                case .deliver:
                    delivered += batch.count
                    deliver(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
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
