/// Records what happens to every subscription through the points of pipelines marked with
/// ``Publisher/recordTimeline(_:to:)``: each subscription's start, the demand asked for, each value,
/// the completion and the cancel, with when, on which thread and why.
///
/// ```swift
/// let recorder = TimelineRecorder()
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.recordTimeline("numbers", to: recorder).sink { _ in }
/// subject.send(1)
/// cancellable.cancel()
/// print(recorder.table)
/// ```
///
/// A recorder keeps at most ``capacity`` events: the oldest are dropped to make room, and counted
/// (``droppedEventCount``), so memory stays bounded however long a program runs. Any thread may
/// record into it and read it at once. Read what it recorded as a ``table`` of text, as a trace file
/// for Perfetto or `chrome://tracing` (``traceEvents()``, ``writeTrace(to:)``), or ask which
/// subscriptions are still alive (``census``).
public final class TimelineRecorder:
    // @unchecked Sendable: every mutable property is guarded by `lock`; the others are constants.
    @unchecked Sendable
{
    /// The recorder that ``Publisher/recordTimeline(_:to:)`` records to unless told otherwise:
    /// 10,000 events, real time.
    public static let shared = TimelineRecorder()

    /// The most events the recorder keeps; older ones are dropped to make room for new ones.
    public let capacity: Int

    /// The most characters of a value's description the recorder keeps; a longer one is cut, and
    /// ends with `…`.
    public let valueLengthLimit: Int

    let clock: TimelineClock
    private let lock = Lock()
    private var ring: TimelineRing
    private var subscriptionsStarted = 0
    private var live: [Int: TimelineCensusEntry] = [:]

    /// Creates a recorder that keeps the latest 10,000 events, with values cut to 80 characters.
    ///
    /// - Parameter clock: Where the time of each event is read: by default, real time since now.
    public init(clock: TimelineClock = .continuous) {
        capacity = 10_000
        valueLengthLimit = 80
        self.clock = clock
        ring = TimelineRing(capacity: capacity)
    }

    /// Creates a recorder that keeps the latest `capacity` events, with values cut to
    /// `valueLengthLimit` characters.
    ///
    /// - Parameters:
    ///   - capacity: The most events kept; at least 1.
    ///   - valueLengthLimit: The most characters of a value's description kept; at least 1.
    ///   - clock: Where the time of each event is read: by default, real time since now.
    /// - Throws: ``TimelineError/capacityNotPositive(_:)`` or
    ///   ``TimelineError/valueLengthLimitNotPositive(_:)`` for a limit below 1.
    public init(capacity: Int, valueLengthLimit: Int = 80, clock: TimelineClock = .continuous) throws(TimelineError) {
        guard capacity > 0 else { throw .capacityNotPositive(capacity) }
        guard valueLengthLimit > 0 else { throw .valueLengthLimitNotPositive(valueLengthLimit) }
        self.capacity = capacity
        self.valueLengthLimit = valueLengthLimit
        self.clock = clock
        ring = TimelineRing(capacity: capacity)
    }

    /// The events kept, oldest first.
    public var events: [TimelineEvent] {
        lock.withLock { ring.events }
    }

    /// How many events were dropped, oldest first, to keep at most ``capacity``.
    public var droppedEventCount: Int {
        lock.withLock { ring.droppedCount }
    }

    /// The subscriptions through marked points that are alive now (neither completed nor
    /// cancelled), oldest first: each one's lane, where and when it started, and its age.
    public var census: [TimelineCensusEntry] {
        let now = clock.now()
        return lock.withLock { live.values.sorted { $0.lane.subscription < $1.lane.subscription } }
            .map { $0.aged(at: now) }
    }

    /// The events kept, oldest first, and the count of those dropped, read together.
    func snapshot() -> (events: [TimelineEvent], dropped: Int) {
        lock.withLock { (ring.events, ring.droppedCount) }
    }

    /// Forgets every event kept and the count of those dropped; the census of live subscriptions
    /// stays.
    public func removeAll() {
        lock.withLock { ring.removeAll() }
    }

    // MARK: Recording

    /// Starts a lane for a new subscription through the point `name`.
    func startLane(named name: String) -> TimelineLane {
        let thread = timelineThreadLabel()
        let time = clock.now()
        return lock.withLock {
            subscriptionsStarted += 1
            let lane = TimelineLane(name: name, subscription: subscriptionsStarted)
            live[lane.subscription] = TimelineCensusEntry(lane: lane, thread: thread, started: time, age: .zero)
            return lane
        }
    }

    /// Records an event on a lane; an event that ends the subscription takes it out of the census.
    func record(_ kind: TimelineEvent.Kind, on lane: TimelineLane) {
        let event = TimelineEvent(time: clock.now(), thread: timelineThreadLabel(), lane: lane, kind: kind)
        lock.withLock {
            ring.append(event)
            switch kind {
            case .finished, .failed, .cancelled: live[lane.subscription] = nil
            case .subscribed, .requested, .value: break
            }
        }
    }

    /// A value's description, cut to ``valueLengthLimit`` characters.
    func describe(_ value: some Any) -> String {
        let description = String(describing: value)
        guard description.count > valueLengthLimit else { return description }
        return String(description.prefix(valueLengthLimit - 1)) + "…"
    }
}

/// A subscription through a marked point that is still alive.
public struct TimelineCensusEntry: Sendable, Equatable, CustomStringConvertible {
    /// The subscription's lane: the point's name and the subscription's number.
    public let lane: TimelineLane
    /// The thread it started on.
    public let thread: String
    /// When it started, on the recorder's clock.
    public let started: Duration
    /// How long it has been alive when the census was taken.
    public let age: Duration

    /// The entry as it was at `now`.
    func aged(at now: Duration) -> TimelineCensusEntry {
        TimelineCensusEntry(lane: lane, thread: thread, started: started, age: now - started)
    }

    /// The lane, its thread and its age: `search results #3, started on main, alive 2.5 s`.
    public var description: String {
        "\(lane), started on \(thread), alive \(age)"
    }
}
