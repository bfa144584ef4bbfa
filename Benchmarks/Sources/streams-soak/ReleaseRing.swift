/// Weak references to the most recent objects a churn thread let go of (subscriptions, wrappers),
/// to check at the end that they were all freed. A ring, so that its memory stays bounded however
/// long the soak runs: older references are dropped unchecked.
struct ReleaseRing {
    /// A weak reference.
    private struct Entry {
        weak var object: AnyObject?
    }

    private var entries: [Entry]
    private var next = 0

    /// A ring that remembers the last `capacity` objects.
    init(capacity: Int) {
        entries = Array(repeating: Entry(), count: capacity)
    }

    /// Remembers an object that should be freed soon.
    mutating func note(_ object: AnyObject) {
        entries[next].object = object
        next = (next + 1) % entries.count
    }

    /// How many of the remembered objects are still alive.
    var aliveCount: Int {
        entries.reduce(0) { $0 + ($1.object == nil ? 0 : 1) }
    }

    /// A description of the first object still alive, for the report.
    var firstAlive: String? {
        entries.lazy.compactMap(\.object).first.map { String(describing: type(of: $0)) }
    }
}
