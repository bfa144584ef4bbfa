import Synchronization

/// What every marked point of every recorder shares: whether any point has a live subscription
/// (so that releasing an `AnyCancellable` costs one load while none has), and why the threads that
/// are cancelling right now are cancelling (so that a cancel passed up a chain keeps its reason).
enum TimelineRecording {
    /// How many subscriptions through marked points are alive.
    static let liveSubscriptions = Atomic<Int>(0)

    /// The cancellations running now, thread by thread, innermost last, with their reasons.
    private static let cancellations = RunningCancellations()

    /// The cancellations running now, under a lock of the library's own, which the thread sanitizer
    /// sees.
    private final class RunningCancellations:
        // @unchecked Sendable: `running` is guarded by `lock`.
        @unchecked Sendable
    {
        private let lock = Lock()
        private var running: [(thread: UInt, reason: TimelineCancelReason)] = []

        /// Runs `body` with the list, under the lock.
        func withLock<Result>(_ body: (inout [(thread: UInt, reason: TimelineCancelReason)]) -> Result) -> Result {
            lock.withLock { body(&running) }
        }
    }

    /// Whether any subscription through a marked point is alive.
    static var isActive: Bool {
        liveSubscriptions.load(ordering: .relaxed) > 0
    }

    /// Runs `cancel`, a cancellation for `reason`, on the calling thread, noting the reason
    /// meanwhile: a marked point upstream that it cancels records the same reason.
    static func cancelling(for reason: TimelineCancelReason, _ cancel: () -> Void) {
        let thread = ThreadIdentity.current.rawValue
        cancellations.withLock { $0.append((thread, reason)) }
        defer {
            cancellations.withLock { running in
                if let index = running.lastIndex(where: { $0.thread == thread }) { running.remove(at: index) }
            }
        }
        cancel()
    }

    /// The reason of the innermost cancellation running on the calling thread, if any.
    static var reasonOnCurrentThread: TimelineCancelReason? {
        let thread = ThreadIdentity.current.rawValue
        return cancellations.withLock { running in running.last { $0.thread == thread }?.reason }
    }
}
