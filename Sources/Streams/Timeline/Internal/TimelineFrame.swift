internal import CStreamsPlatform

/// What a thread is doing for a timeline right now, innermost last: a tap subscribing upstream, a
/// tap handing its subscriber an event, or a cancellation with its reason.
///
/// Frames live on the stack of the thread that pushes them and are chained through a pointer of
/// the thread's own, so reading them takes no lock: a subscription made while a tap subscribes
/// belongs to the tap's pipeline, a value recorded while a tap hands on a value came from it, and
/// a cancel made while a tap delivers came from downstream.
struct TimelineFrame {
    /// What the thread is doing.
    enum Activity {
        /// The tap is subscribing its subscriber to the publisher upstream.
        case subscribing
        /// The tap is handing its subscriber an event: a value (the event's number) or something
        /// else (`nil`).
        case delivering(value: Int?)
        /// A cancellation for a reason is running.
        case cancelling(TimelineCancelReason)
    }

    /// The tap, for subscribing and delivering; `nil` for a cancellation.
    let tap: Unmanaged<TimelineTap>?
    /// What the thread is doing.
    let activity: Activity
    /// The frame this one is inside of.
    let outer: UnsafeMutableRawPointer?

    /// Runs `body` with a frame for `activity` pushed on the calling thread.
    static func with<Result>(_ tap: TimelineTap?, _ activity: Activity, _ body: () -> Result) -> Result {
        var frame = TimelineFrame(
            tap: tap.map { Unmanaged.passUnretained($0) }, activity: activity, outer: streams_timeline_frame())
        return withUnsafeMutablePointer(to: &frame) { pointer in
            streams_set_timeline_frame(pointer)
            defer { streams_set_timeline_frame(pointer.pointee.outer) }
            return body()
        }
    }

    /// Pushes the frame at `frame`, which must stay where it is until ``pop(_:)``.
    static func push(_ frame: UnsafeMutablePointer<TimelineFrame>) {
        streams_set_timeline_frame(frame)
    }

    /// Pops the frame at `frame`, the innermost.
    static func pop(_ frame: UnsafeMutablePointer<TimelineFrame>) {
        streams_set_timeline_frame(frame.pointee.outer)
    }

    /// The calling thread's innermost frame, for a frame about to be pushed to point to.
    static var current: UnsafeMutableRawPointer? { streams_timeline_frame() }

    /// Calls `visit` with each frame of the calling thread, innermost first, until it returns a
    /// result.
    static func first<Result>(_ visit: (TimelineFrame) -> Result?) -> Result? {
        var next = streams_timeline_frame()
        while let pointer = next {
            let frame = pointer.assumingMemoryBound(to: TimelineFrame.self).pointee
            if let result = visit(frame) { return result }
            next = frame.outer
        }
        return nil
    }

    /// The innermost frame: its tap, if any, and what the thread is doing.
    static var innermost: (tap: TimelineTap?, activity: Activity)? {
        first { frame in (frame.tap?.takeUnretainedValue(), frame.activity) }
    }

    /// The innermost frame of a tap, with what that tap is doing.
    static var innermostTap: (tap: TimelineTap, activity: Activity)? {
        first { frame in frame.tap.map { ($0.takeUnretainedValue(), frame.activity) } }
    }

    /// Why `tap` is being cancelled, as the calling thread's frames tell it: the reason of the
    /// innermost cancellation running, or "ended downstream" when the innermost of those frames is
    /// `tap` delivering an event; `nil` when neither.
    static func cancelReason(for tap: TimelineTap) -> TimelineCancelReason? {
        first { frame in
            switch frame.activity {
            case .cancelling(let reason): return reason
            case .delivering where frame.tap?.takeUnretainedValue() === tap: return .endedDownstream
            case .delivering, .subscribing: return nil
            }
        }
    }

    /// The event number of the innermost value the calling thread is handing on now, if
    /// `recorder` recorded it: the value a new value came from. (A value an inner publisher of
    /// `flatMap` publishes as it is subscribed to comes from the value that made it.)
    static func valueBeingDelivered(in recorder: TimelineRecorder) -> Int? {
        first { frame -> Int?? in
            guard case .delivering(let value?) = frame.activity, let tap = frame.tap?.takeUnretainedValue() else {
                return nil
            }
            return .some(tap.recorder === recorder ? value : nil)
        } ?? nil
    }
}
