/// What `timeout` keeps besides its events: the timer that ends the stream.
@usableFromInline
struct TimeoutDeadline {
    /// Whether the downstream has made its first request.
    @usableFromInline
    var requested = false

    /// The generation of the current timer; older timers are stale.
    @usableFromInline
    var generation = 0

    /// The current timer, once scheduled.
    @usableFromInline
    var timer: (any Cancellable)?

    /// The thread starting the first timer, while it does.
    @usableFromInline
    var settingUp = ThreadIdentity.none

    @inlinable
    init() {}
}

/// The state of `timeout` (`Publishers.Timeout.Inner`): its events, delivered as
/// ``ScheduledEventState`` says, and its timer. As in Combine, the subscription, the first request
/// and each value start a new timer; a timer replaced or stopped is recognized by its generation and
/// ignored should it still fire.
extension ScheduledEventState where Deadline == TimeoutDeadline {
    /// Upstream sent its subscription, on `thread`: returns the generation of the first timer to
    /// start, or `nil` to cancel the subscription.
    @inlinable
    mutating func receiveTimed(subscription: any Subscription, thread: ThreadIdentity) -> Int? {
        guard receive(subscription: subscription) else { return nil }
        deadline.settingUp = thread
        deadline.generation += 1
        return deadline.generation
    }

    /// An upstream event arrived: holds it and returns the timer it stops and the generation of the
    /// timer to start (none after the completion); `nil` when it is ignored.
    @inlinable
    mutating func enqueueTimed(_ event: Event) -> (stopped: (any Cancellable)?, restart: Int?)? {
        guard enqueue(event) else { return nil }
        deadline.generation += 1
        return (deadline.timer.take(), upstreamCompleted ? nil : deadline.generation)
    }

    /// Downstream asked for values: returns the upstream subscription to pass the request to, and,
    /// the first time, the timer it stops and the generation of the timer to start.
    @inlinable
    mutating func request() -> (subscription: (any Subscription)?, restart: (stopped: (any Cancellable)?, Int)?) {
        guard let subscription = status.subscription else { return (nil, nil) }
        guard !deadline.requested, !upstreamCompleted else { return (subscription, nil) }
        deadline.requested = true
        deadline.generation += 1
        return (subscription, (deadline.timer.take(), deadline.generation))
    }

    /// The scheduler returned the timer of `generation`: returns whether to keep it (otherwise it is
    /// stale, and cancelled).
    @inlinable
    mutating func keep(_ timer: any Cancellable, of generation: Int) -> Bool {
        guard deadline.generation == generation, status.isSubscribed else { return false }
        deadline.timer = timer
        return true
    }

    /// The timer of `generation` fired on `thread`: unless it is stale, the time has run out. Returns
    /// the upstream subscription and the timer to cancel and the events dropped.
    @inlinable
    mutating func timerFired(
        generation: Int, thread: ThreadIdentity
    ) -> (subscription: any Subscription, timer: (any Cancellable)?, discarded: FIFOQueue<Event>)? {
        precondition(
            deadline.settingUp != thread,
            "timeout(_:scheduler:) needs a scheduler that runs its timer later, not while it is set: "
                + "its timer fired during the subscription (ImmediateScheduler cannot be used)")
        guard deadline.generation == generation, !upstreamCompleted, let subscription = status.subscription else {
            return nil
        }
        deadline.generation += 1
        return (subscription, deadline.timer.take(), end())
    }

    /// The time ran out: `completion` goes out before anything else. Returns whether the caller takes
    /// the delivery and delivers.
    @inlinable
    mutating func timedOut(_ completion: Subscribers.Completion<Downstream.Failure>) -> Bool {
        ownCompletion = completion
        guard !delivering else { return false }
        delivering = true
        return true
    }

    /// Downstream cancelled: a time-out that has not gone out yet does not go out after it. Returns
    /// the upstream subscription and the timer to cancel and the events dropped.
    @inlinable
    mutating func cancelTimed() -> (
        subscription: (any Subscription)?, timer: (any Cancellable)?, discarded: FIFOQueue<Event>
    ) {
        ownCompletion = nil
        guard let subscription = status.subscription else { return (nil, nil, FIFOQueue()) }
        deadline.generation += 1
        return (subscription, deadline.timer.take(), end())
    }
}
