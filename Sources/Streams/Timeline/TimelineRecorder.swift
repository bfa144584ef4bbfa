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
    private var eventsRecorded = 0
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

    /// The subscriptions recorded that are alive now (neither completed nor cancelled), in the
    /// order they were made: each one's lane, its chain, where and when it started, and its age.
    public var census: [TimelineCensusEntry] {
        let now = clock.now()
        let live = lock.withLock { self.live }
        return live.values.sorted { $0.lane.subscription < $1.lane.subscription }.map { entry in
            var chain = [entry.lane.name]
            var next = entry.lane.downstream
            while let number = next, let downstream = live[number], chain.count <= live.count {
                chain.append(downstream.lane.name)
                next = downstream.lane.downstream
            }
            return TimelineCensusEntry(
                lane: entry.lane, chain: chain, thread: entry.thread, started: entry.started, age: now - entry.started)
        }
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

    // MARK: Recording every subscription

    /// The recorder recording every subscription of the process now, if any: one started with
    /// ``startRecording()``, or the one the `STREAMS_TIMELINE` environment variable starts.
    public static var current: TimelineRecorder? {
        TimelineRecording.processRecorder
    }

    /// Records every subscription that `body` makes, and every subscription those make in turn,
    /// for as long as each lives: every operator's subscription gets a lane, linked to the lane
    /// downstream of it, so the trace shows each chain (subject → map → removeDuplicates → sink).
    ///
    /// ```swift
    /// let recorder = TimelineRecorder()
    /// let cancellable = recorder.record {
    ///     store.publisher(for: \.title).sink { print($0) }
    /// }
    /// ```
    ///
    /// The scope follows the calling task and thread, so tests running side by side each record
    /// their own subscriptions; a subscription made on another thread meanwhile is not recorded
    /// unless it is made for one that is (an inner publisher of `flatMap`, a `catch`'s
    /// replacement).
    ///
    /// - Parameter body: The code whose subscriptions are recorded.
    /// - Returns: What `body` returns.
    public func record<Result>(_ body: () throws -> Result) rethrows -> Result {
        TimelineRecording.gate.add(1, ordering: .relaxed)
        defer { TimelineRecording.gate.subtract(1, ordering: .relaxed) }
        return try TimelineRecording.$scoped.withValue(self, operation: body)
    }

    /// Starts recording every subscription the process makes from now on, on any thread, until
    /// ``stopRecording()``; it replaces the recorder that was doing so, if any
    /// (``TimelineRecorder/current``).
    ///
    /// Setting the environment variable `STREAMS_TIMELINE` to a file's path does the same for a
    /// whole run of a program, unchanged: a recorder of 100,000 events (or
    /// `STREAMS_TIMELINE_CAPACITY`) starts with the first subscription, and its trace is written to
    /// the file when the program exits.
    public func startRecording() {
        TimelineRecording.startRecording(to: self)
    }

    /// Stops recording every subscription the process makes, if this recorder is the one doing
    /// so. Subscriptions already recorded go on recording until they end.
    public func stopRecording() {
        TimelineRecording.stopRecording(to: self)
    }

    // MARK: Recording

    /// Numbers a lane for a subscription being made through a point named `name`, downstream of
    /// which is what the calling thread's innermost tap, `below`, is doing.
    func makeLane(named name: String, below: (tap: TimelineTap, activity: TimelineFrame.Activity)?) -> TimelineLane {
        var downstream: Int?
        var pipeline: Int?
        if let (tap, activity) = below, tap.recorder === self {
            switch activity {
            case .subscribing: downstream = tap.lane.subscription
            case .delivering, .cancelling: downstream = tap.lane.downstream
            }
            pipeline = tap.lane.pipeline
        }
        let number = lock.withLock {
            subscriptionsStarted += 1
            return subscriptionsStarted
        }
        return TimelineLane(name: name, subscription: number, downstream: downstream, pipeline: pipeline)
    }

    /// Records an event on a lane and returns its number: a subscription's start puts it in the
    /// census, its end takes it out; a value notes the value it came from.
    @discardableResult
    func record(_ kind: TimelineEvent.Kind, on lane: TimelineLane) -> Int {
        var cause: Int?
        if case .value = kind { cause = TimelineFrame.valueBeingDelivered(in: self) }
        let time = clock.now()
        let thread = timelineThreadLabel()
        return lock.withLock {
            eventsRecorded += 1
            ring.append(
                TimelineEvent(id: eventsRecorded, time: time, thread: thread, lane: lane, kind: kind, cause: cause))
            if case .subscribed = kind {
                live[lane.subscription] = TimelineCensusEntry(
                    lane: lane, chain: [], thread: thread, started: time, age: .zero)
            } else if kind.endsSubscription {
                live[lane.subscription] = nil
            }
            return eventsRecorded
        }
    }

    /// A value's description, cut to ``valueLengthLimit`` characters.
    func describe(_ value: some Any) -> String {
        let description = String(describing: value)
        guard description.count > valueLengthLimit else { return description }
        return String(description.prefix(valueLengthLimit - 1)) + "…"
    }
}

/// A subscription on a timeline that is still alive.
public struct TimelineCensusEntry: Sendable, Equatable, CustomStringConvertible {
    /// The subscription's lane: the point's name and the subscription's number.
    public let lane: TimelineLane
    /// The names of the lanes from this one to the last of its pipeline, as far as they are alive:
    /// `["PassthroughSubject", "Map", "RemoveDuplicates"]`.
    public let chain: [String]
    /// The thread it started on.
    public let thread: String
    /// When it started, on the recorder's clock.
    public let started: Duration
    /// How long it has been alive when the census was taken.
    public let age: Duration

    /// The lane, its chain, its thread and its age: `Map #3 (→ RemoveDuplicates), started on main,
    /// alive 2.5 seconds`.
    public var description: String {
        let rest = chain.dropFirst()
        return
            "\(lane)\(rest.isEmpty ? "" : " (→ " + rest.joined(separator: " → ") + ")"), started on \(thread), alive \(age)"
    }
}
