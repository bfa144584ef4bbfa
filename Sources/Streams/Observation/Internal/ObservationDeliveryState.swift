/// The state of one ``ObservationPublisher`` subscription: a plain value that its subscription keeps
/// under its lock. Each method makes one decision and returns what the caller does next, outside the
/// lock.
struct ObservationDeliveryState<Output> {
    /// Where the subscription stands.
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
    enum Delivery {
        /// Hand this value downstream, then add the demand it returns and ask again.
        case value(Output)
        /// Send the completion; the subscription is done.
        case finish
        /// Nothing to do: no value, no demand, or another thread holds the delivery turn.
        case none
    }

    private(set) var phase = Phase.live
    private(set) var demand = Subscribers.Demand.none
    /// The latest value read and not delivered yet.
    private(set) var pending: Output?
    /// Whether a read is scheduled and has not started: later changes coalesce into it.
    private(set) var readScheduled = false
    /// Whether a thread is delivering: it delivers whatever arrives meanwhile before it stops.
    private var delivering = false

    /// A tracked value changed: whether the caller schedules a read (only the first change before
    /// the read runs does).
    mutating func changed() -> Bool {
        guard phase == .live, !readScheduled else { return false }
        readScheduled = true
        return true
    }

    /// A scheduled read starts: whether the caller reads (not after cancellation). Changes from now
    /// on schedule another read, since this one may run before them.
    mutating func beginScheduledRead() -> Bool {
        readScheduled = false
        return phase == .live
    }

    /// Holds a value read, replacing an older undelivered one; `nil` means the source is gone.
    mutating func store(_ value: Output?) {
        guard phase == .live else { return }
        if let value {
            pending = value
        } else {
            phase = .finishing
        }
    }

    /// Nothing read can change any more: finish once the held value, if any, is delivered.
    mutating func finish() {
        guard phase == .live else { return }
        phase = .finishing
    }

    /// Adds the subscriber's demand.
    mutating func add(_ additional: Subscribers.Demand) {
        guard phase != .done else { return }
        demand += additional
    }

    /// Takes the next delivery, claiming the delivery turn (`claim`: the caller does not hold it
    /// yet), or releasing it when there is nothing to deliver.
    mutating func nextDelivery(claim: Bool) -> Delivery {
        if claim {
            guard !delivering else { return .none }
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

    /// Cancels: nothing is delivered or read from now on.
    mutating func cancel() {
        phase = .done
        demand = .none
        pending = nil
    }
}
