import Synchronization

/// What one workload's subscribers did, added up from every thread, and what went wrong: the
/// correctness checks report here, and the report reads it at the end.
final class WorkloadLedger: Sendable {
    /// The most violations kept word for word; the rest are only counted.
    static let keptViolations = 12

    /// The workload's name, and whether this is its warm-up, for messages.
    let name: String
    /// Values received by the workload's checked subscribers.
    let delivered = Atomic<Int>(0)
    /// Checked subscribers created.
    let created = Atomic<Int>(0)
    /// Subscribers cancelled, from another thread or from inside their own `receive(_:)`.
    let cancelled = Atomic<Int>(0)
    /// Subscribers that received a completion.
    let completed = Atomic<Int>(0)
    /// Checked subscribers alive now (created and not yet deinitialized).
    let alive = Atomic<Int>(0)
    /// Values that arrived after `cancel()` had returned: at most one per subscriber is allowed, a
    /// value that another thread was already handing over.
    let lateAfterCancel = Atomic<Int>(0)

    /// The longest a churn thread took to attach a subscriber (subscribing included), in nanoseconds.
    let slowestAttachNanoseconds = Atomic<Int>(0)

    private let violations = Mutex<(count: Int, messages: [String])>((0, []))

    /// An empty ledger for the workload (or warm-up) called `name`.
    init(_ name: String) {
        self.name = name
    }

    /// Records a failed check.
    func violation(_ message: @autoclosure () -> String) {
        let text = message()
        violations.withLock { log in
            log.count += 1
            if log.messages.count < Self.keptViolations { log.messages.append(text) }
        }
    }

    /// Notes how long attaching a subscriber took.
    func noteAttach(taking duration: Duration) {
        let nanoseconds = duration.inNanoseconds
        var current = slowestAttachNanoseconds.load(ordering: .relaxed)
        while nanoseconds > current {
            let (exchanged, original) = slowestAttachNanoseconds.compareExchange(
                expected: current, desired: nanoseconds, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// How many checks failed.
    var violationCount: Int {
        violations.withLock { $0.count }
    }

    /// The first failed checks, word for word.
    var violationMessages: [String] {
        violations.withLock { $0.messages }
    }

    /// Waits up to `seconds` for every checked subscriber to be deinitialized, and records a violation
    /// if some are still alive: something kept a cancelled or completed subscriber.
    func expectAllFreed(within seconds: Double, _ context: String) {
        let freed = waitUntil(seconds: seconds) { alive.load(ordering: .acquiring) == 0 }
        if !freed {
            violation(
                "\(context): \(alive.load(ordering: .acquiring)) subscribers still alive after everything was released")
        }
    }
}
