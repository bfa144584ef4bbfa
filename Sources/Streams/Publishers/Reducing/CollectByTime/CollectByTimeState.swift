/// The state of a time-grouping collect (`Publishers.CollectByTime.Inner`), kept under its lock. Each
/// method decides what an event does and returns what must then be done outside the lock; the
/// calling thread's identity is passed in.
///
/// As in Combine, elements are collected for one interval of a repeating timer, and what was
/// collected goes out when the interval ends, if the downstream wants an array. With a maximum
/// count, an array that reaches it goes out at once (on the scheduler) and starts a new interval.
/// After the upstream completes, what is left goes out as demand allows, then the completion.
@usableFromInline
struct CollectByTimeState<Downstream: Subscriber, Element>: PacedState
where Downstream.Input == [Element] {
    /// What the operator owes its downstream.
    @usableFromInline
    enum Event: PacedEvent {
        /// An array the timer (or the end of the stream) sent: the demand the downstream answers with
        /// stays here.
        case timed([Element])
        /// An array that reached the maximum count: the demand the downstream answers with is passed
        /// upstream, multiplied by the count.
        case full([Element])
        case completion(Subscribers.Completion<Downstream.Failure>)

        @inlinable
        var isCompletion: Bool {
            if case .completion = self { return true }
            return false
        }
    }

    /// What a change of demand asks the caller to do.
    @usableFromInline
    struct DemandChange {
        /// The upstream subscription, to ask for elements.
        @usableFromInline
        var subscription: (any Subscription)?

        /// Schedule the delivery of a full array.
        @usableFromInline
        var scheduleFull: Bool

        /// Schedule the flush of what is left after the upstream completed.
        @usableFromInline
        var scheduleFlush: Bool

        @inlinable
        init(subscription: (any Subscription)? = nil, scheduleFull: Bool = false, scheduleFlush: Bool = false) {
            self.subscription = subscription
            self.scheduleFull = scheduleFull
            self.scheduleFlush = scheduleFlush
        }
    }

    /// The maximum size of an array, for `byTimeOrCount`.
    @usableFromInline
    let count: Int?

    @usableFromInline
    var downstream: Downstream?

    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// How many arrays the downstream still wants.
    @usableFromInline
    var demand = Subscribers.Demand.none

    @usableFromInline
    var buffer: [Element] = []

    /// The repeating timer, once the scheduler has returned it.
    @usableFromInline
    var timer: (any Cancellable)?

    /// Counts the timers started, so that a timer replaced meanwhile is not kept.
    @usableFromInline
    var timerGeneration: UInt64 = 0

    /// Whether a delivery of a full array is scheduled.
    @usableFromInline
    var isFullDeliveryScheduled = false

    /// The upstream's completion, once its delivery has been scheduled.
    @usableFromInline
    var completion: Subscribers.Completion<Downstream.Failure>?

    /// Whether the scheduled delivery of the completion has run: from then on, the remaining arrays
    /// and the completion go out as demand allows.
    @usableFromInline
    var isFlushing = false

    @usableFromInline
    var delivery = PacedDelivery<Event>()

    @inlinable
    init(downstream: Downstream, count: Int?) {
        self.downstream = downstream
        self.count = count
    }

    /// Upstream sent its subscription: returns the downstream to hand the operator to, or `nil` to
    /// cancel the subscription.
    @inlinable
    mutating func receive(subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription = status else { return nil }
        status = .subscribed(subscription)
        return downstream
    }

    /// Upstream sent `input`: returns whether it was taken, and whether a full array is now to be
    /// delivered (the caller restarts the timer and schedules the delivery).
    @inlinable
    mutating func receive(_ input: Element) -> (accepted: Bool, isFull: Bool) {
        guard status.isSubscribed else { return (false, false) }
        buffer.append(input)
        return (true, claimFullDelivery())
    }

    /// Upstream completed: returns whether the flush is to be scheduled, and the timer to cancel.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Downstream.Failure>
    ) -> (accepted: Bool, timer: (any Cancellable)?) {
        guard status.isSubscribed else { return (false, nil) }
        status = .terminal
        self.completion = completion
        if case .failure = completion { buffer = [] }
        return (true, timer.take())
    }

    /// Whether the buffer holds a full array that the downstream wants and whose delivery nobody has
    /// scheduled yet; if so, the caller must schedule it.
    @inlinable
    mutating func claimFullDelivery() -> Bool {
        guard status.isSubscribed, let count, buffer.count >= count, demand > 0, !isFullDeliveryScheduled else {
            return false
        }
        isFullDeliveryScheduled = true
        return true
    }

    /// The scheduled delivery of a full array is due: queues it if it is still full and wanted.
    @inlinable
    mutating func fullDeliveryDue(thread: ThreadIdentity) -> PacedDelivery<Event>.Duty {
        isFullDeliveryScheduled = false
        guard status.isSubscribed, let count, buffer.count >= count, demand > 0 else { return .none }
        demand -= 1
        let array = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return delivery.enqueue(.full(array), thread: thread)
    }

    /// A new timer is starting: returns its generation and the running timer, to cancel.
    @inlinable
    mutating func restartTimer() -> (generation: UInt64, previous: (any Cancellable)?) {
        timerGeneration &+= 1
        return (timerGeneration, timer.take())
    }

    /// The scheduler returned the timer of `generation`: returns whether to keep it (otherwise it was
    /// replaced or the stream ended meanwhile, and it is cancelled).
    @inlinable
    mutating func keep(_ timer: any Cancellable, of generation: UInt64) -> Bool {
        guard status.isSubscribed, timerGeneration == generation else { return false }
        self.timer = timer
        return true
    }

    /// One interval ended: queues what it collected, if the downstream wants it.
    @inlinable
    mutating func tick(thread: ThreadIdentity) -> PacedDelivery<Event>.Duty {
        guard status.isSubscribed, demand > 0, !buffer.isEmpty else { return .none }
        demand -= 1
        return delivery.enqueue(.timed(takeArray()), thread: thread)
    }

    /// Removes the next array from the buffer, at most `count` long.
    @inlinable
    mutating func takeArray() -> [Element] {
        guard let count, buffer.count > count else {
            defer { buffer = [] }
            return buffer
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    /// The scheduled flush is due: from now on, what is left goes out as demand allows.
    @inlinable
    mutating func startFlushing(thread: ThreadIdentity) -> PacedDelivery<Event>.Duty {
        guard downstream != nil else { return .none }
        isFlushing = true
        return flush(thread: thread)
    }

    /// After the upstream completed: queues what is left as demand allows, then the completion.
    @inlinable
    mutating func flush(thread: ThreadIdentity) -> PacedDelivery<Event>.Duty {
        var duty = PacedDelivery<Event>.Duty.none
        while !buffer.isEmpty, demand > 0 {
            demand -= 1
            duty = Swift.max(duty, delivery.enqueue(.timed(takeArray()), thread: thread))
        }
        if buffer.isEmpty, let completion = completion.take() {
            duty = Swift.max(duty, delivery.enqueue(.completion(completion), thread: thread))
        }
        return duty
    }

    /// Downstream wants `additional` more arrays, by a request or from inside a delivery
    /// (`isDelivering`). What the new demand lets through goes out on the scheduler or, when the
    /// demand comes back from a delivery after the upstream completed, right after it (the
    /// deliverer picks up what this queues).
    @inlinable
    mutating func add(_ additional: Subscribers.Demand, isDelivering: Bool, thread: ThreadIdentity) -> DemandChange {
        guard downstream != nil else { return DemandChange() }
        demand += additional
        guard !isFlushing else {
            if isDelivering { _ = flush(thread: thread) }
            return DemandChange(scheduleFlush: !isDelivering)
        }
        return DemandChange(subscription: status.subscription, scheduleFull: claimFullDelivery())
    }

    /// Downstream cancelled: returns the upstream subscription and the timer to cancel.
    @inlinable
    mutating func cancel() -> (subscription: (any Subscription)?, timer: (any Cancellable)?) {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        buffer = []
        completion = nil
        delivery.discard()
        return (subscription, timer.take())
    }
}
