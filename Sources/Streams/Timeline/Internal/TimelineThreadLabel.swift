internal import CStreamsPlatform

/// The label a timeline gives the calling thread: its name, or `thread` and its number when it has
/// none; read on the thread's first event and kept for its life.
func timelineThreadLabel() -> String {
    String(cString: streams_thread_label())
}
