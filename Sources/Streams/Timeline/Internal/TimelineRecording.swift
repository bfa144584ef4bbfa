// Public, so that `Publisher.subscribe(_:)`, inlined into its callers, reads the gate as one load.
public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What every recorder shares: whether any timeline is being recorded at all (so that a subscribe
/// or the release of an `AnyCancellable` costs one load while none is), and which recorder records
/// every subscription of the process, or of a scope.
@usableFromInline
enum TimelineRecording {
    /// Nonzero while anything could record: a live tap, a scope of ``TimelineRecorder/record(_:)``,
    /// or a recorder recording the whole process. It starts at 1, a constant (so that reading it
    /// needs no lazy initialization), which stands for the environment until it is read
    /// (``TimelineEnvironment/settled``): the first subscription takes the 1 away unless the
    /// environment asks for a recording.
    @usableFromInline
    static let gate = Atomic<Int>(1)

    /// The recorder of the scope of ``TimelineRecorder/record(_:)`` the calling code is in.
    @TaskLocal static var scoped: TimelineRecorder?

    /// The recorder that records every subscription of the process, if any.
    private static let process = ProcessRecorder()

    /// The recorder recording every subscription of the process, under a lock of the library's own.
    private final class ProcessRecorder:
        // @unchecked Sendable: `recorder` is guarded by `lock`.
        @unchecked Sendable
    {
        private let lock = Lock()
        private var recorder: TimelineRecorder? = TimelineEnvironment.recorder

        /// The recorder, if any.
        var current: TimelineRecorder? { lock.withLock { recorder } }

        /// Replaces the recorder; returns the one it replaced.
        func exchange(_ new: TimelineRecorder?) -> TimelineRecorder? {
            lock.withLock {
                let old = recorder
                recorder = new
                return old
            }
        }
    }

    /// Whether anything could be recording now.
    @inlinable
    static var isActive: Bool {
        gate.load(ordering: .relaxed) > 0
    }

    /// The recorder recording every subscription of the process, if any.
    static var processRecorder: TimelineRecorder? { process.current }

    /// Makes `recorder` record every subscription of the process, in place of the one that did.
    static func startRecording(to recorder: TimelineRecorder) {
        if process.exchange(recorder) == nil { gate.add(1, ordering: .relaxed) }
    }

    /// Stops `recorder` recording every subscription of the process, if it is the one that does.
    static func stopRecording(to recorder: TimelineRecorder) {
        let old = process.exchange(nil)
        if old == nil { return }
        if old !== recorder {
            _ = process.exchange(old)
            return
        }
        gate.subtract(1, ordering: .relaxed)
    }

    /// Runs `cancel`, a cancellation for `reason`, on the calling thread, noting the reason
    /// meanwhile: a tap upstream that it cancels records the same reason.
    static func cancelling(for reason: TimelineCancelReason, _ cancel: () -> Void) {
        TimelineEnvironment.settle()
        TimelineFrame.with(nil, .cancelling(reason), cancel)
    }

    /// `action`, to run later on a scheduler with the calling thread's innermost timeline frame
    /// in place, so that what it does is seen as what caused it: a value `receive(on:)` delivers
    /// comes from the value that arrived upstream, a subscription `subscribe(on:)` makes belongs to
    /// its pipeline. While nothing records a timeline, `action` itself.
    @usableFromInline
    static func carrying(_ action: @escaping () -> Void) -> () -> Void {
        guard isActive, let (tap, activity) = TimelineFrame.innermost else { return action }
        return { TimelineFrame.with(tap, activity, action) }
    }

    /// Where a subscription that is not marked goes, if every subscription is being recorded here:
    /// the recorder of the tap that is subscribing or delivering on this thread, else the scope's,
    /// else the process's.
    static func recorderForEverySubscription() -> TimelineRecorder? {
        if let (tap, _) = TimelineFrame.innermostTap, let recorder = tap.everySubscriptionRecorder {
            return recorder
        }
        return scoped ?? processRecorder
    }
}

extension TimelineRecording {
    /// The lane a subscription being made while something could be recording gets, if every
    /// subscription is being recorded here; `nil` for one that is not recorded, that is made
    /// through a marked point (which records it itself), or that a publisher hands on to another
    /// (`AnyPublisher`, `Deferred`, `share`): the tap subscribing is already there.
    ///
    /// - Parameters:
    ///   - subscriber: The subscriber if it is a tap.
    ///   - isMarked: Whether the publisher is a marked point.
    ///   - name: The name a type-erased publisher gives itself.
    ///   - type: The publisher's type, which names the lane otherwise.
    @usableFromInline
    static func plan(
        forwarding subscriber: TimelineTap?, isMarked: Bool, name: String?, type: Any.Type
    ) -> TimelineTapPlan? {
        TimelineEnvironment.settle()
        let innermost = TimelineFrame.innermostTap
        if let subscriber, let (tap, activity) = innermost, case .subscribing = activity, subscriber === tap {
            return nil
        }
        guard !isMarked, let recorder = recorderForEverySubscription() else { return nil }
        let lane = recorder.makeLane(named: name ?? timelineName(of: type), below: innermost)
        return TimelineTapPlan(recorder: recorder, lane: lane)
    }

    /// Notes that `tap` is subscribing upstream, until ``endSubscribing(_:)``: a subscription
    /// made upstream in the meantime belongs downstream of it.
    @usableFromInline
    static func beginSubscribing(_ tap: TimelineTap) {
        tap.subscribingFrame.initialize(
            to: TimelineFrame(tap: .passUnretained(tap), activity: .subscribing, outer: TimelineFrame.current))
        TimelineFrame.push(tap.subscribingFrame)
    }

    /// Notes that `tap` is done subscribing upstream.
    @usableFromInline
    static func endSubscribing(_ tap: TimelineTap) {
        TimelineFrame.pop(tap.subscribingFrame)
    }
}

/// Where a new tap records, and on which lane.
@usableFromInline
struct TimelineTapPlan {
    /// The recorder that records every subscription made here.
    let recorder: TimelineRecorder
    /// The new subscription's lane.
    let lane: TimelineLane
}

/// The name of a publisher's type, without its generic arguments: `Map`, `PassthroughSubject`.
func timelineName(of type: Any.Type) -> String {
    let full = String(describing: type)
    return full.firstIndex(of: "<").map { String(full[..<$0]) } ?? full
}

/// The name of `publisher`'s type, without its generic arguments: `Map`, `PassthroughSubject`; for
/// a type-erased publisher, the name of the publisher it erases.
func timelineName(of publisher: some Publisher) -> String {
    (publisher as? any TimelineNamedPublisher)?.timelineName ?? timelineName(of: type(of: publisher))
}

/// A publisher that names itself in a timeline other than by its type: one that erases another's.
@usableFromInline
protocol TimelineNamedPublisher {
    /// The name its lanes take.
    var timelineName: String { get }
}

/// A publisher that records its own subscriptions under a name of the user's: a point marked with
/// `recordTimeline(_:to:)`.
@usableFromInline
protocol TimelineMarkedPublisher {}

/// What the environment asks of timelines: `STREAMS_TIMELINE` names a file to write the trace of
/// the whole process to when it exits, and `STREAMS_TIMELINE_CAPACITY` how many events to keep.
enum TimelineEnvironment {
    /// The path of the trace file, if the environment asks for one.
    static let tracePath: String? = {
        guard let value = getenv("STREAMS_TIMELINE"), value.pointee != 0 else { return nil }
        return String(cString: value)
    }()

    /// Whether the environment asks for the whole process to be recorded.
    static var isRequested: Bool { tracePath != nil }

    /// Reads the environment, once: unless it asks for a recording, the gate's first 1 goes.
    static let settled: Void = {
        if !isRequested { TimelineRecording.gate.subtract(1, ordering: .relaxed) }
    }()

    /// Reads the environment if it has not been read yet.
    static func settle() {
        settled
    }

    /// The recorder recording the process for the environment, made on first use, which also
    /// arranges for the trace to be written when the process exits.
    static let recorder: TimelineRecorder? = {
        guard tracePath != nil else { return nil }
        let recorder: TimelineRecorder
        if let text = getenv("STREAMS_TIMELINE_CAPACITY").map({ String(cString: $0) }) {
            do {
                recorder = try TimelineRecorder(capacity: Int(text) ?? 0)
            } catch {
                report("STREAMS_TIMELINE_CAPACITY=\(text): \(error); keeping 100000 events")
                recorder = (try? TimelineRecorder(capacity: 100_000)) ?? TimelineRecorder()
            }
        } else {
            recorder = (try? TimelineRecorder(capacity: 100_000)) ?? TimelineRecorder()
        }
        atexit { TimelineEnvironment.writeTrace() }
        return recorder
    }()

    /// Writes the environment's recorder's trace to its file, saying on the standard error where
    /// it went or why it could not.
    static func writeTrace() {
        guard let tracePath, let recorder else { return }
        do {
            try recorder.writeTrace(to: tracePath)
            let (events, dropped) = recorder.snapshot()
            report(
                "wrote a timeline of \(events.count) events to \(tracePath)\(dropped > 0 ? " (\(dropped) older events dropped)" : "")"
            )
        } catch {
            report("\(error)")
        }
    }

    /// Writes `message` on the standard error, as Streams' timelines speak.
    static func report(_ message: String) {
        let bytes = Array("Streams timeline: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
