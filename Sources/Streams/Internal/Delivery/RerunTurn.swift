/// A turn for work that must not run on two threads at once but that any thread may ask for, such as
/// reading a value or comparing a snapshot: the first asker runs it; one that finds it running asks
/// the runner to run it once more, and returns at once. So no thread waits, the runs happen one
/// after another (a result obtained later is never replaced by one obtained earlier), and the last
/// run starts after the last ask. A plain value, kept under its owner's lock.
@usableFromInline
struct RerunTurn {
    /// Whether a thread is running the work.
    @usableFromInline
    var isRunning = false
    /// Whether the work was asked for while it ran: the runner runs it again.
    @usableFromInline
    var isAskedAgain = false

    @inlinable
    init() {}

    /// Asks for a run: `true` if the caller runs it now (it holds the turn); `false` if another
    /// thread is running it, which will run it again.
    @inlinable
    mutating func claim() -> Bool {
        guard !isRunning else {
            isAskedAgain = true
            return false
        }
        isRunning = true
        return true
    }

    /// The runner's run is done: `true` if it runs again, keeping the turn, because a run was asked
    /// for meanwhile and `mayRunAgain`; otherwise the turn is given up.
    @inlinable
    mutating func finishRun(mayRunAgain: Bool = true) -> Bool {
        if isAskedAgain, mayRunAgain {
            isAskedAgain = false
            return true
        }
        isRunning = false
        isAskedAgain = false
        return false
    }
}
