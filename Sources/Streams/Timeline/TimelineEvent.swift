/// One thing that happened to a subscription through a point of a pipeline marked with
/// ``Publisher/recordTimeline(_:to:)``: when, on which thread, on which lane, and what.
public struct TimelineEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The subscription started: the upstream publisher handed the point its subscription.
        case subscribed
        /// The subscriber downstream asked for more values, either with `request(_:)` or by what it
        /// returned from `receive(_:)`.
        case requested(Subscribers.Demand)
        /// A value passed the point; its description, cut to the recorder's length limit.
        case value(String)
        /// The upstream publisher finished.
        case finished
        /// The upstream publisher failed; the error's description.
        case failed(String)
        /// The subscription was cancelled, and why.
        case cancelled(TimelineCancelReason)
    }

    /// When it happened: the time since the recorder started, on the recorder's clock (virtual time
    /// under a test scheduler).
    public let time: Duration

    /// The thread it happened on: its name, or `thread` and its number when it has none.
    public let thread: String

    /// The subscription it happened to.
    public let lane: TimelineLane

    /// What happened.
    public let kind: Kind

    /// Creates an event.
    public init(time: Duration, thread: String, lane: TimelineLane, kind: Kind) {
        self.time = time
        self.thread = thread
        self.lane = lane
        self.kind = kind
    }

    /// The event in a few words, as the text table shows it: `requested max(1)`, `value 42`,
    /// `cancelled (AnyCancellable released)`.
    public var description: String {
        switch kind {
        case .subscribed: "subscribed"
        case .requested(let demand): "requested \(demand)"
        case .value(let value): "value \(value)"
        case .finished: "finished"
        case .failed(let error): "failed: \(error)"
        case .cancelled(let reason): "cancelled (\(reason))"
        }
    }
}

/// One subscription through a marked point: its own lane in a timeline.
public struct TimelineLane: Sendable, Hashable, CustomStringConvertible {
    /// The name given to the point with ``Publisher/recordTimeline(_:to:)``.
    public let name: String

    /// The subscription's number: the recorder numbers subscriptions from 1 in the order they
    /// start, so several subscriptions through one point (after `share()`, say) are told apart.
    public let subscription: Int

    /// Creates a lane.
    public init(name: String, subscription: Int) {
        self.name = name
        self.subscription = subscription
    }

    /// The point's name and the subscription's number: `search results #3`.
    public var description: String { "\(name) #\(subscription)" }
}

/// Why a subscription was cancelled.
public enum TimelineCancelReason: Sendable, Equatable, CustomStringConvertible {
    /// Code called `cancel()` on the subscription or on its `AnyCancellable`.
    case cancelCalled
    /// The `AnyCancellable` that held the subscription was released, and cancelled it as it went:
    /// a subscription that lives a few microseconds this way is the classic forgotten `store(in:)`.
    case cancellableReleased
    /// An operator downstream ended the subscription while the point was handing it an event:
    /// `prefix`, `first`, a `switchToLatest` replacing its publisher, a subscriber that cancels
    /// from its own closure.
    case endedDownstream

    /// The reason in a few words.
    public var description: String {
        switch self {
        case .cancelCalled: "cancel() called"
        case .cancellableReleased: "AnyCancellable released"
        case .endedDownstream: "ended downstream"
        }
    }
}
