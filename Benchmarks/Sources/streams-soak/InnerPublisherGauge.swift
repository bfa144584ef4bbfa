import Synchronization

/// Counts the inner publishers of one `flatMap` subscription that are subscribed at the same time,
/// and records a violation when there are more than its `maxPublishers`.
final class InnerPublisherGauge: Sendable {
    /// The subscription's `maxPublishers`.
    let limit: Int
    private let active = Atomic<Int>(0)
    private let ledger: WorkloadLedger

    /// A gauge for a `flatMap(maxPublishers: .max(limit))` subscription.
    init(limit: Int, ledger: WorkloadLedger) {
        self.limit = limit
        self.ledger = ledger
    }

    /// An inner publisher received its subscription.
    func started() {
        let now = active.add(1, ordering: .relaxed).newValue
        if now > limit { ledger.violation("flatMap(maxPublishers: .max(\(limit))): \(now) inner publishers at once") }
    }

    /// An inner publisher finished or was cancelled.
    func ended() {
        active.subtract(1, ordering: .relaxed)
    }
}
