/// The decisions of one subscriber's subscription to a subject, as a plain value: the demand it is
/// owed, whether it is owed the subject's current value (and whether that delivery is queued), whether
/// its subscriber has its subscription yet, and whether the subscription still lives.
///
/// ``SubjectConduit`` keeps one, guarded by its lock, and does what its methods return; it also keeps
/// what is not a decision: the lock, the flags read without it, the broadcaster, the subscriber and a
/// completion held for it.
///
/// The rules, which are Combine's:
/// - A value goes to a subscriber that has demand for it; each takes one unit. Demand is added by
///   `request(_:)` and by what the subscriber returns from `receive(_:)`.
/// - A current-value subject owes each subscriber its current value: before the first value, and
///   again after the subscriber missed a value for lack of demand. Demand added while it is owed
///   queues one delivery of it; a value delivered meanwhile settles the debt.
/// - An observable object's publisher ignores demand, but sends nothing to a subscriber that has not
///   returned from `receive(subscription:)` unless the value was sent from inside that call, on the
///   thread that attached it.
/// - A completion waits while the subscriber has not returned from `receive(subscription:)` and it
///   comes from another thread; it then goes to the subscriber once it has.
/// - Once ended (completed or cancelled), the subscription delivers nothing and ignores demand.
@usableFromInline
struct SubjectConduitState {
    /// Which publisher the subscription belongs to.
    @usableFromInline
    let kind: SubjectKind

    /// Whether the subject keeps a current value.
    @usableFromInline
    let keepsCurrentValue: Bool

    /// Whether the subscription has not ended yet.
    @usableFromInline
    var isLive = true

    /// What the subscriber has asked for and not yet received.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Whether the subscriber is owed the subject's current value.
    @usableFromInline
    var owesCurrentValue: Bool

    /// Whether a delivery of the current value is queued.
    @usableFromInline
    var currentValueQueued = false

    /// Whether the subscriber has returned from `receive(subscription:)`.
    @usableFromInline
    var hasSubscription = false

    /// A live subscription, owed nothing yet; a current-value subject's subscriber is owed its value.
    @inlinable
    init(kind: SubjectKind, keepsCurrentValue: Bool) {
        self.kind = kind
        self.keepsCurrentValue = keepsCurrentValue
        owesCurrentValue = keepsCurrentValue
    }

    /// Whether every value may now go out without a look at the demand: the subscription lives and
    /// its demand is unlimited and it owes no current value, or it belongs to an observable object's
    /// publisher, which ignores demand, and its subscriber has its subscription. The conduit keeps
    /// this in a flag that delivery reads without the lock.
    @inlinable
    var deliversFreely: Bool {
        guard isLive else { return false }
        if kind == .observableObject { return hasSubscription }
        return demand == .unlimited && !owesCurrentValue
    }

    /// Takes one unit of demand for a value about to go out (the current value if `forCurrentValue`);
    /// returns whether it may go out. `onAttachingThread` says whether the value is sent on the thread
    /// that attached the subscriber; it is read only where that matters.
    @inlinable
    mutating func takeDemand(forCurrentValue: Bool, onAttachingThread: @autoclosure () -> Bool) -> Bool {
        if kind == .observableObject {
            return isLive && (hasSubscription || onAttachingThread())
        }
        if forCurrentValue {
            currentValueQueued = false
            guard owesCurrentValue else { return false }
        }
        guard isLive, demand > 0 else {
            if keepsCurrentValue { owesCurrentValue = true }
            return false
        }
        demand -= 1
        owesCurrentValue = false
        return true
    }

    /// What adding demand asks of the conduit, besides updating its flags.
    @usableFromInline
    enum DemandStep: Equatable {
        /// Nothing.
        case none
        /// A passthrough subject may learn of its subscribers' first demand.
        case acknowledge
        /// Deliver the current value the subscriber is owed.
        case sendCurrentValue
    }

    /// Adds `more` to the demand, unless the subscription has ended.
    @inlinable
    mutating func addDemand(_ more: Subscribers.Demand) -> DemandStep {
        guard isLive else { return .none }
        demand += more
        guard owesCurrentValue, !currentValueQueued else {
            return kind == .passthrough ? .acknowledge : .none
        }
        currentValueQueued = true
        return .sendCurrentValue
    }

    /// Records that the subscriber has returned from `receive(subscription:)`.
    @inlinable
    mutating func subscriptionDelivered() {
        hasSubscription = true
    }

    /// What to do with a completion that has arrived.
    @usableFromInline
    enum CompletionStep: Equatable {
        /// Keep it until the subscriber has its subscription; then call ``subscriptionDelivered()``
        /// and deliver it.
        case hold
        /// The subscription has ended now: deliver it.
        case deliver
        /// The subscription had already ended: drop it.
        case drop
    }

    /// Decides what happens to a completion; `onAttachingThread` says whether it was sent on the
    /// thread that attached the subscriber.
    @inlinable
    mutating func complete(onAttachingThread: @autoclosure () -> Bool) -> CompletionStep {
        guard hasSubscription || onAttachingThread() else { return .hold }
        return end() ? .deliver : .drop
    }

    /// Ends the subscription; returns whether it was live.
    @inlinable
    mutating func end() -> Bool {
        defer { isLive = false }
        return isLive
    }
}
