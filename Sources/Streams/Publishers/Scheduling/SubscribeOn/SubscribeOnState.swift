/// The state of `subscribe(on:)` (`Publishers.SubscribeOn.Inner`), kept under its lock: the upstream
/// subscription and the calls to make on it.
///
/// Each request and the cancel are scheduled as their own action. The actions hand their call to
/// `calls`, and whichever finds nobody calling upstream makes the calls, oldest first, so upstream
/// is never called concurrently or re-entrantly, even from a concurrent scheduler or from within one
/// of its own requests.
@usableFromInline
struct SubscribeOnState {
    /// A call to make on the upstream subscription.
    @usableFromInline
    enum UpstreamCall {
        case request(any Subscription, Subscribers.Demand)
        case cancel(any Subscription)
    }

    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// Calls whose scheduled action has run, waiting for their turn upstream.
    @usableFromInline
    var calls = ContiguousArray<UpstreamCall>()

    /// Someone is making calls upstream.
    @usableFromInline
    var calling = false

    @inlinable
    init() {}

    /// Downstream cancelled: returns the upstream subscription, for the scheduled cancel.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        guard let subscription = status.subscription else { return nil }
        status = .terminal
        return subscription
    }

    /// A scheduled call is due: returns whether the caller makes the calls (nobody else is).
    @inlinable
    mutating func enqueue(_ call: UpstreamCall) -> Bool {
        calls.append(call)
        guard !calling else { return false }
        calling = true
        return true
    }

    /// For the caller making the calls: swaps the waiting calls into `batch` (which it has emptied),
    /// or, when none waits, stops calling and returns `false`.
    @inlinable
    mutating func takeCalls(into batch: inout ContiguousArray<UpstreamCall>) -> Bool {
        guard !calls.isEmpty else {
            calling = false
            return false
        }
        swap(&batch, &calls)
        return true
    }
}
