/// One thing that happened to a subscription on a timeline: when, on which thread, on which lane,
/// and what.
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

        /// Whether the event ends its subscription: a completion or a cancel.
        var endsSubscription: Bool {
            switch self {
            case .finished, .failed, .cancelled: true
            case .subscribed, .requested, .value: false
            }
        }
    }

    /// The event's number: the recorder numbers events from 1 in the order they happen.
    public let id: Int

    /// When it happened: the time since the recorder started, on the recorder's clock (virtual time
    /// under a test scheduler).
    public let time: Duration

    /// The thread it happened on: its name, or `thread` and its number when it has none.
    public let thread: String

    /// The subscription it happened to.
    public let lane: TimelineLane

    /// What happened.
    public let kind: Kind

    /// For a value, the number of the value upstream it came from: the one a subscription upstream
    /// was handing on, on the same thread, when this one arrived; `nil` for one that started here
    /// (a subject's `send`, a timer) and for every other event.
    public let cause: Int?

    /// Creates an event.
    public init(id: Int = 0, time: Duration, thread: String, lane: TimelineLane, kind: Kind, cause: Int? = nil) {
        self.id = id
        self.time = time
        self.thread = thread
        self.lane = lane
        self.kind = kind
        self.cause = cause
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

/// One subscription: its own lane in a timeline, and where it sits in its pipeline.
public struct TimelineLane: Sendable, Hashable, CustomStringConvertible {
    /// The name given to the point with ``Publisher/recordTimeline(_:to:)``, or, when every
    /// subscription is recorded, the name of the publisher subscribed to (`Map`,
    /// `PassthroughSubject`).
    public let name: String

    /// The subscription's number: the recorder numbers subscriptions from 1 in the order they
    /// are made, so several subscriptions through one point (after `share()`, say) are told apart.
    public let subscription: Int

    /// The number of the subscription downstream that this one was made for (the lane that
    /// receives what this one delivers, through the operators between them), or `nil` for the last
    /// lane of its pipeline.
    public let downstream: Int?

    /// The number of the last lane of the pipeline this lane belongs to: all the subscriptions made
    /// for one subscriber share it.
    public let pipeline: Int

    /// Creates a lane; by default the last of a pipeline of its own.
    public init(name: String, subscription: Int, downstream: Int? = nil, pipeline: Int? = nil) {
        self.name = name
        self.subscription = subscription
        self.downstream = downstream
        self.pipeline = pipeline ?? subscription
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
