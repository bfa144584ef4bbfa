import Streams
import Synchronization

/// How the subscriptions to a ``CountedUpstream`` ended.
final class UpstreamCounts: Sendable {
    /// Subscriptions made.
    let subscribed = Atomic<Int>(0)
    /// Subscriptions cancelled.
    let cancelled = Atomic<Int>(0)
    /// Subscriptions that received the completion.
    let completed = Atomic<Int>(0)

    /// Counts that have seen nothing.
    init() {}

    /// Subscriptions neither cancelled nor completed.
    var open: Int {
        subscribed.load(ordering: .acquiring) - cancelled.load(ordering: .acquiring)
            - completed.load(ordering: .acquiring)
    }
}

/// The upstream of the share workload: the senders' subject, counting the subscriptions it gives and
/// how each ended, so that the workload can check that every connection `share()` and `multicast`
/// made was cancelled or completed.
struct CountedUpstream: Publisher, Sendable {
    typealias Output = Stamp
    typealias Failure = Never

    /// The subject the senders send into.
    let subject: PassthroughSubject<Stamp, Never>
    /// Where the subscriptions are counted.
    let counts: UpstreamCounts

    /// Subscribes `subscriber` to the subject, counting the subscription and how it ends.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Stamp, S.Failure == Never {
        let counts = counts
        subject.handleEvents(
            receiveSubscription: { _ in counts.subscribed.add(1, ordering: .relaxed) },
            receiveCompletion: { _ in counts.completed.add(1, ordering: .relaxed) },
            receiveCancel: { counts.cancelled.add(1, ordering: .relaxed) }
        )
        .subscribe(subscriber)
    }
}
