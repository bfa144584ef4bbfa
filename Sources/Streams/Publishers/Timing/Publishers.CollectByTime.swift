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
                upstream.receive(
                    subscriber: Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: nil, options: options))
            case .byTimeOrCount(let scheduler, let stride, let count):
                precondition(count > 0, "collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got \(count)")
                upstream.receive(
                    subscriber: Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: count, options: options))
            }
        }
    }
}

extension Publishers.CollectByTime {
    /// The subscriber and subscription of a time-grouping collect: it keeps the buffer and the
    /// repeating timer that empties it.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, PacedDelivering, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        /// What the inner owes its downstream.
        @usableFromInline
        enum Event {
            /// An array the timer (or the end of the stream) sent: the demand the downstream answers
            /// with stays here.
            case timed([Upstream.Output])
            /// An array that reached the maximum count: the demand the downstream answers with is
            /// passed upstream, multiplied by the count.
            case full([Upstream.Output])
            case completion(Subscribers.Completion<Upstream.Failure>)
        }

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

        // Everything below is guarded by `lock`.

        /// Released once the completion is delivered or the subscription is cancelled.
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Downstream?

        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        /// How many arrays the downstream still wants.
        @usableFromInline
        @exclusivity(unchecked)
        var demand = Subscribers.Demand.none

        @usableFromInline
        @exclusivity(unchecked)
        var buffer: [Upstream.Output] = []

        /// The repeating timer, once the scheduler has returned it.
        @usableFromInline
        @exclusivity(unchecked)
        var timer: (any Cancellable)?

        /// Counts the timers started, so that a timer replaced meanwhile is not kept.
        @usableFromInline
        @exclusivity(unchecked)
        var timerGeneration: UInt64 = 0

        /// Whether a delivery of a full array is scheduled.
        @usableFromInline
        @exclusivity(unchecked)
        var isFullDeliveryScheduled = false

        /// The upstream's completion, once its delivery has been scheduled.
        @usableFromInline
        @exclusivity(unchecked)
        var completion: Subscribers.Completion<Upstream.Failure>?

        /// Whether the scheduled delivery of the completion has run: from then on, the remaining
        /// arrays and the completion go out as demand allows.
        @usableFromInline
        @exclusivity(unchecked)
        var isFlushing = false

        @usableFromInline
        @exclusivity(unchecked)
        var delivery = PacedDelivery<Event>()

        @inlinable
        init(
            downstream: Downstream,
            scheduler: Context,
            stride: Context.SchedulerTimeType.Stride,
            count: Int?,
            options: Context.SchedulerOptions?
        ) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.stride = stride
            self.count = count
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
            restartTimer()
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let (accepted, isFull) = lock.withLock { () -> (Bool, Bool) in
                guard status.isSubscribed else { return (false, false) }
                buffer.append(input)
                return (true, claimFullDelivery())
            }
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
            let (accepted, timer) = lock.withLock { () -> (Bool, (any Cancellable)?) in
                guard status.isSubscribed else { return (false, nil) }
                status = .terminal
                self.completion = completion
                if case .failure = completion { buffer = [] }
                return (true, self.timer.take())
            }
            guard accepted else { return }
            timer?.cancel()
            scheduleFlush()
        }

        /// After the upstream completed: sends, on the scheduler, what is left and the completion.
        @inlinable
        func scheduleFlush() {
            scheduler.schedule(options: options) {
                let duty = self.lock.withLock { () -> PacedDelivery<Event>.Duty in
                    guard self.downstream != nil else { return .none }
                    self.isFlushing = true
                    return self.flush()
                }
                self.perform(duty)
            }
        }

        /// Under the lock: whether the buffer holds a full array that the downstream wants and whose
        /// delivery nobody has scheduled yet; if so, the caller must schedule it.
        @inlinable
        func claimFullDelivery() -> Bool {
            guard status.isSubscribed, let count, buffer.count >= count, demand > 0, !isFullDeliveryScheduled else {
                return false
            }
            isFullDeliveryScheduled = true
            return true
        }

        @inlinable
        func scheduleFullDelivery() {
            scheduler.schedule(options: options) {
                let duty = self.lock.withLock { () -> PacedDelivery<Event>.Duty in
                    self.isFullDeliveryScheduled = false
                    guard self.status.isSubscribed, let count = self.count, self.buffer.count >= count,
                        self.demand > 0
                    else { return .none }
                    self.demand -= 1
                    let array = Array(self.buffer.prefix(count))
                    self.buffer.removeFirst(count)
                    return self.delivery.enqueue(.full(array))
                }
                self.perform(duty)
                // Values that came in meanwhile may have filled another array.
                if self.lock.withLock({ self.claimFullDelivery() }) {
                    self.scheduleFullDelivery()
                }
            }
        }

        /// Starts the repeating timer from now, replacing the running one.
        @inlinable
        func restartTimer() {
            let (generation, previous) = lock.withLock { () -> (UInt64, (any Cancellable)?) in
                timerGeneration &+= 1
                return (timerGeneration, self.timer.take())
            }
            previous?.cancel()
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: stride),
                interval: stride,
                tolerance: scheduler.minimumTolerance,
                options: options
            ) {
                self.tick()
            }
            let isCurrent = lock.withLock { () -> Bool in
                guard status.isSubscribed, timerGeneration == generation else { return false }
                self.timer = timer
                return true
            }
            if !isCurrent { timer.cancel() }
        }

        /// One interval ended: what it collected goes out, if the downstream wants it.
        @inlinable
        func tick() {
            let duty = lock.withLock { () -> PacedDelivery<Event>.Duty in
                guard status.isSubscribed, demand > 0, !buffer.isEmpty else { return .none }
                demand -= 1
                return delivery.enqueue(.timed(takeArray()))
            }
            perform(duty)
        }

        /// Under the lock: removes the next array from the buffer, at most `count` long.
        @inlinable
        func takeArray() -> [Upstream.Output] {
            guard let count, buffer.count > count else {
                defer { buffer = [] }
                return buffer
            }
            defer { buffer.removeFirst(count) }
            return Array(buffer.prefix(count))
        }

        /// Under the lock, after the upstream completed: queues what is left as demand allows, then
        /// the completion. Returns what the caller must do (see ``PacedDelivery/Duty``).
        @inlinable
        func flush() -> PacedDelivery<Event>.Duty {
            var duty = PacedDelivery<Event>.Duty.none
            while !buffer.isEmpty, demand > 0 {
                demand -= 1
                duty = Swift.max(duty, delivery.enqueue(.timed(takeArray())))
            }
            if buffer.isEmpty, let completion = completion.take() {
                duty = Swift.max(duty, delivery.enqueue(.completion(completion)))
            }
            return duty
        }

        /// Delivers queued events one at a time, with the lock released during each call. The caller
        /// holds the turn; the drain gives it up.
        @inlinable
        func drain() {
            var handedOver: TurnWaiter?
            defer { handedOver?.unpark() }
            while let (event, downstream) = lock.withLock({ () -> (Event, Downstream)? in
                // Once cancelled, nothing more goes out: emptying the queue ends the drain.
                guard let downstream = self.downstream else {
                    delivery.discard()
                    _ = delivery.next(handingOverTo: &handedOver)
                    return nil
                }
                guard let event = delivery.next(handingOverTo: &handedOver) else { return nil }
                if case .completion = event {
                    self.downstream = nil
                    delivery.discard()
                }
                return (event, downstream)
            }) {
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
        }

        /// Adds demand for arrays and asks upstream for `upstreamDemand` elements, if given. What the
        /// new demand lets through goes out on the scheduler, or, when the demand comes back from a
        /// delivery after the upstream completed, right after it.
        @inlinable
        func addDemand(
            _ additional: Subscribers.Demand, upstream upstreamDemand: Subscribers.Demand?, isDelivering: Bool
        ) {
            let (subscription, scheduleFull, scheduleFlush) = lock.withLock {
                () -> ((any Subscription)?, Bool, Bool) in
                guard downstream != nil else { return (nil, false, false) }
                demand += additional
                guard !isFlushing else {
                    // The deliverer picks up what `flush` queues when this call returns.
                    if isDelivering { _ = flush() }
                    return (nil, false, !isDelivering)
                }
                return (status.subscription, claimFullDelivery(), false)
            }
            if let upstreamDemand { subscription?.request(upstreamDemand) }
            if scheduleFull { scheduleFullDelivery() }
            if scheduleFlush { self.scheduleFlush() }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            addDemand(demand, upstream: count.map { demand * $0 } ?? .max(1), isDelivering: false)
        }

        @inlinable
        func cancel() {
            let (subscription, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
                let subscription = status.subscription
                status = .terminal
                downstream = nil
                buffer = []
                completion = nil
                delivery.discard()
                return (subscription, self.timer.take())
            }
            timer?.cancel()
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "CollectByTime" }

        @usableFromInline
        var customMirror: Mirror {
            let (downstream, buffer) = lock.withLock { (self.downstream, self.buffer) }
            return Mirror(self, children: ["downstream": downstream as Any, "buffer": buffer])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
