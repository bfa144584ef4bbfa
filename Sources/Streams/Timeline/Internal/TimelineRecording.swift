import Synchronization

/// What every marked point of every recorder shares: whether any point has a live subscription
/// (so that releasing an `AnyCancellable` costs one load while none has), and which threads are
/// releasing an `AnyCancellable` right now (so that a point can tell a release from a call to
/// `cancel()`).
enum TimelineRecording {
    /// How many subscriptions through marked points are alive.
    static let liveSubscriptions = Atomic<Int>(0)

    /// The threads running the cancellation of an `AnyCancellable` being released, innermost last.
    private static let releasingThreads = Mutex<[UInt]>([])

    /// Whether any subscription through a marked point is alive.
    static var isActive: Bool {
        liveSubscriptions.load(ordering: .relaxed) > 0
    }

    /// Runs `cancel`, the cancellation of an `AnyCancellable` being released, on the calling thread,
    /// noting that the thread is releasing one meanwhile.
    static func whileReleasing(_ cancel: () -> Void) {
        let thread = ThreadIdentity.current.rawValue
        releasingThreads.withLock { $0.append(thread) }
        defer {
            releasingThreads.withLock { threads in
                if let index = threads.lastIndex(of: thread) { threads.remove(at: index) }
            }
        }
        cancel()
    }

    /// Whether the calling thread is releasing an `AnyCancellable`.
    static var isReleasingOnCurrentThread: Bool {
        let thread = ThreadIdentity.current.rawValue
        return releasingThreads.withLock { $0.contains(thread) }
    }
}
