import Synchronization

/// One observer of the mail store: it shows one part of the state, subscribes to it one way, and
/// counts how many times it wakes — each time, a view would render again.
final class MailObserver: Sendable {
    /// Which observer this is.
    let id: ObserverID
    /// How many times the observer woke since the count was last taken.
    private let wakes = Mutex(0)

    /// Creates an observer that has not woken yet.
    ///
    /// - Parameter id: Which observer this is.
    init(id: ObserverID) {
        self.id = id
    }

    /// Counts one wake: the observer was told that what it shows changed.
    func wake() {
        wakes.withLock { $0 += 1 }
    }

    /// Returns how many times the observer woke since the last call, and starts counting again.
    func takeWakes() -> Int {
        wakes.withLock { count in
            defer { count = 0 }
            return count
        }
    }
}
