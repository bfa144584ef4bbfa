/// The state of one ``ObservationPublisher`` subscription: a plain value that its subscription keeps
/// under its lock. Each method makes one decision and returns what the caller does next, outside the
/// lock.
@usableFromInline
struct ObservationDeliveryState<Output> {
    /// Where the subscription stands.
    @usableFromInline
    enum Phase {
        /// Tracking changes and delivering values.
        case live
        /// Nothing can change any more (the model is gone, or nothing observable was read, or only
        /// the initial value was asked for): the held value, if any, goes down, then the completion.
        case finishing
        /// Cancelled or finished: nothing more happens.
        case done
    }

    /// What the caller delivers next.
    @usableFromInline
    enum Delivery {
        /// Hand this value downstream, then add the demand it returns and ask again.
        case value(Output)
        /// Send the completion; the subscription is done.
        case finish
        /// Nothing to do: no value, no demand, or another thread holds the delivery turn.
        case none
    }

    @usableFromInline
    var phase = Phase.live
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The latest value read and not delivered yet.
    @usableFromInline
    var pending: Output?
    /// Whether a read is scheduled and has not started: later changes coalesce into it.
    @usableFromInline
    var readScheduled = false
    /// Reads are made one at a time, so that a value read later is never replaced by one read
    /// earlier; a read asked for while another thread reads is made by that thread once done.
    @usableFromInline
    var reads = RerunTurn()
    /// Whether a thread is delivering: it delivers whatever arrives meanwhile before it stops.
    @usableFromInline
    var delivering = false
    /// Whether the subscriber has received its subscription: nothing is delivered before.
    @usableFromInline
    var subscribed = false

    /// The subscriber has received its subscription: deliveries may start.
    @inlinable
    mutating func markSubscribed() {
        subscribed = true
    }

    /// A tracked value changed: whether the caller schedules a read (only the first change before
    /// the read runs does).
    @inlinable
    mutating func changed() -> Bool {
        guard phase == .live, !readScheduled else { return false }
        readScheduled = true
        return true
    }

    /// The first read starts, on the subscribing thread: reads asked for meanwhile are left to it.
    @inlinable
    mutating func beginFirstRead() {
        _ = reads.claim()
    }

    /// A scheduled read starts: whether the caller reads (not after cancellation, nor while another
    /// thread reads: that thread then reads again once done). Changes from now on schedule another
    /// read, since this one may run before them.
    @inlinable
    mutating func beginScheduledRead() -> Bool {
        readScheduled = false
        guard phase == .live else { return false }
        return reads.claim()
    }

    /// The reading thread has stored what it read: whether it reads again, because a read was asked
    /// for meanwhile.
    @inlinable
    mutating func endRead() -> Bool {
        reads.finishRun(mayRunAgain: phase == .live)
    }

    /// Holds a value read, replacing an older undelivered one; `nil` means the source is gone.
    @inlinable
    mutating func store(_ value: Output?) {
        guard phase == .live else { return }
        if let value {
            pending = value
        } else {
            phase = .finishing
        }
    }

    /// Nothing read can change any more: finish once the held value, if any, is delivered.
    @inlinable
    mutating func finish() {
        guard phase == .live else { return }
        phase = .finishing
    }

    /// Adds the subscriber's demand.
    @inlinable
    mutating func add(_ additional: Subscribers.Demand) {
        guard phase != .done else { return }
        demand += additional
    }

    /// Takes the next delivery, claiming the delivery turn (`claim`: the caller does not hold it
    /// yet), or releasing it when there is nothing to deliver.
    @inlinable
    mutating func nextDelivery(claim: Bool) -> Delivery {
        if claim {
            guard subscribed, !delivering else { return .none }
            delivering = true
        }
        if phase != .done, demand > 0, let value = pending.take() {
            demand -= 1
            return .value(value)
        }
        if phase == .finishing, pending == nil {
            phase = .done
            delivering = false
            return .finish
        }
        delivering = false
        return .none
    }

    /// Whether values may go to the subscriber as they are read, without passing through the state:
    /// it is live and has its subscription and unlimited demand, and nothing is held or delivered.
    @inlinable
    var isIdleAndUnlimited: Bool {
        phase == .live && subscribed && !delivering && pending == nil && demand == .unlimited
    }

    /// Cancels: nothing is delivered or read from now on.
    @inlinable
    mutating func cancel() {
        phase = .done
        demand = .none
        pending = nil
    }
}
