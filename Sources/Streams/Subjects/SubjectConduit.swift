/// The subscription a subject hands each subscriber: it tracks that subscriber's demand.
///
/// Its demand and flags are guarded by its own lock; `slot` is guarded by the subject's lock.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once cancelled or completed.
    @usableFromInline
    var broadcaster: SubjectBroadcaster<Output, Failure>?

    /// Guarded by `lock`.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: whether the subscriber is owed the subject's current value (current-value
    /// subjects only): before its first value, and after it missed one for lack of demand.
    @usableFromInline
    var owesCurrentValue: Bool

    /// Guarded by `lock`: whether a delivery of the current value is already queued.
    @usableFromInline
    var currentValueQueued = false

    /// Guarded by the subject's lock: this conduit's place in the subscriber list.
    @usableFromInline
    var slot = -1

    /// Whether the subject is a current-value subject.
    @usableFromInline
    let keepsCurrentValue: Bool

    @inlinable
    init(broadcaster: SubjectBroadcaster<Output, Failure>) {
        self.broadcaster = broadcaster
        keepsCurrentValue = broadcaster.keepsCurrentValue
        owesCurrentValue = broadcaster.keepsCurrentValue
    }

    /// Takes one unit of demand for a value about to be delivered; false if there is none.
    @inlinable
    func takeDemand() -> Bool {
        lock.withLock {
            guard broadcaster != nil, demand > 0 else {
                if keepsCurrentValue { owesCurrentValue = true }
                return false
            }
            demand -= 1
            owesCurrentValue = false
            return true
        }
    }

    /// Takes one unit of demand for the queued current value; false if it is no longer owed.
    @inlinable
    func takeDemandForCurrentValue() -> Bool {
        lock.withLock {
            currentValueQueued = false
            guard broadcaster != nil, owesCurrentValue, demand > 0 else { return false }
            demand -= 1
            owesCurrentValue = false
            return true
        }
    }

    /// Adds the demand a subscriber returned from `receive(_:)`.
    @inlinable
    func addDemand(_ more: Subscribers.Demand) {
        let owed = lock.withLock { () -> Bool in
            guard broadcaster != nil else { return false }
            demand += more
            guard owesCurrentValue, !currentValueQueued else { return false }
            currentValueQueued = true
            return true
        }
        if owed, let broadcaster = lock.withLock({ broadcaster }) {
            broadcaster.sendCurrentValue(to: self)
        }
    }

    /// Ends the subscription because the subject completed; false if it had already ended.
    @inlinable
    func finish() -> Bool {
        lock.withLock { broadcaster.take() != nil }
    }

    /// Adds demand; a current-value subject then delivers its value if the subscriber is owed it.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        addDemand(demand)
    }

    /// Ends the subscription: the subject forgets the subscriber and sends it nothing more.
    @inlinable
    func cancel() {
        let broadcaster = lock.withLock { self.broadcaster.take() }
        broadcaster?.remove(self)
    }

    @usableFromInline
    var description: String {
        keepsCurrentValue ? "CurrentValueSubject" : "PassthroughSubject"
    }

    @usableFromInline
    var customMirror: Mirror {
        let (broadcaster, demand) = lock.withLock { (self.broadcaster, self.demand) }
        let downstream = broadcaster?.subscriber(of: self)
        let children: [Mirror.Child] = [
            ("parent", broadcaster as Any),
            ("downstream", downstream as Any),
            ("demand", demand),
        ]
        return Mirror(self, children: children)
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
