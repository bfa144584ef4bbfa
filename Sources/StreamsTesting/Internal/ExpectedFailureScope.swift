import Streams

/// One open `XCTExpectFailure` block: it counts the failures StreamsTesting reports while it runs
/// instead of letting them through.
///
/// Scopes form a chain from the innermost block outwards. A scope is bound to the code its block
/// runs through a task-local value (see ``TestIssueReporter/expectedFailures``), so it is seen by
/// that thread or task, and by tasks created inside the block, never by other threads. Once its
/// block has returned the scope is closed: a task that outlived the block and reports later goes
/// on to the enclosing scope, or to the test, instead of being counted where nobody looks.
final class ExpectedFailureScope: @unchecked Sendable {  // `state` is guarded by `lock`
    private struct State {
        var isOpen = true
        var count = 0
    }

    /// The scope of the enclosing block, if any.
    let enclosing: ExpectedFailureScope?
    // Streams' lock rather than `Mutex`: blocks on many threads contend for it, and on Linux the
    // thread sanitizer cannot see `Mutex` hand a contended lock over.
    private let lock = Lock()
    private var state = State()

    init(enclosing: ExpectedFailureScope?) {
        self.enclosing = enclosing
    }

    /// Counts one failure in the innermost open scope of the chain that starts here; returns
    /// `false` when every scope of the chain is closed, so the failure must be raised.
    func absorb() -> Bool {
        var scope: ExpectedFailureScope? = self
        while let current = scope {
            let counted = current.lock.withLock {
                guard current.state.isOpen else { return false }
                current.state.count += 1
                return true
            }
            if counted { return true }
            scope = current.enclosing
        }
        return false
    }

    /// Closes the scope and returns how many failures it counted.
    func close() -> Int {
        lock.withLock {
            state.isOpen = false
            return state.count
        }
    }
}
