/// The events a recorder keeps: at most `capacity`, the oldest dropped first, with a count of those
/// dropped. A plain value; the recorder guards it with its lock.
struct TimelineRing {
    /// The most events kept.
    let capacity: Int
    /// The storage, filled up to `capacity` and then reused from `start`.
    private var storage: [TimelineEvent] = []
    /// Where the oldest event is, once the storage is full.
    private var start = 0
    /// How many events were dropped to make room for newer ones.
    private(set) var droppedCount = 0

    /// Creates an empty ring that keeps at most `capacity` events; `capacity` is at least 1.
    init(capacity: Int) {
        precondition(capacity > 0, "A timeline ring keeps at least one event")
        self.capacity = capacity
    }

    /// Keeps an event, dropping the oldest if the ring is full.
    mutating func append(_ event: TimelineEvent) {
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[start] = event
            start = (start + 1) % capacity
            droppedCount += 1
        }
    }

    /// The events kept, oldest first.
    var events: [TimelineEvent] {
        Array(storage[start...] + storage[..<start])
    }

    /// How many events are kept.
    var count: Int { storage.count }

    /// Forgets every event and the count of those dropped.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        start = 0
        droppedCount = 0
    }
}
