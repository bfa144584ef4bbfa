import Foundation
import Streams
import Synchronization

/// What a ``ScheduleTap`` saw of the order of a subscriber's events across threads: deliveries on the
/// thread where its `cancel()` had returned, and deliveries before its `receive(subscription:)` began.
///
/// What "nothing after cancel" can promise, as Combine does: nothing reaches the subscriber on the
/// thread where its `cancel()` returned, afterwards; another thread may still deliver one event that
/// the operator decided on before the cancel (see
/// ``ScheduleProblems/checkDelivery(_:_:_:lateInside:maxCompletions:maxAfterCompletion:subscriber:)``).
/// And a subscriber is handed its subscription before anything else. (Once it has it, values and the
/// completion may come from another thread while `receive(subscription:)` still runs, after a request
/// made there, as in Combine.)
///
/// The threads are kept in relaxed atomics, which order nothing, so that the checks add no
/// synchronization between the delivering threads for the thread sanitizer to rely on. A publisher
/// that orders a delivery after the subscription makes the subscription's mark visible to it.
final class DeliveryWatch: Sendable {
    private let cancellingThread = Atomic<UInt>(0)
    private let subscribing = Atomic<Bool>(false)
    private let late = Atomic<Int>(0)
    private let early = Atomic<Int>(0)

    /// The calling thread, as a number.
    private static var currentThread: UInt { UInt(bitPattern: ObjectIdentifier(Thread.current)) }

    /// Notes that `cancel()` has just returned on the calling thread.
    func cancelReturned() {
        cancellingThread.store(Self.currentThread, ordering: .relaxed)
    }

    /// Notes that `receive(subscription:)` begins.
    func subscriptionBegins() {
        subscribing.store(true, ordering: .relaxed)
    }

    /// Counts a delivery that reaches the subscriber on the thread where its `cancel()` returned, or
    /// before its subscription.
    func delivering() {
        if !subscribing.load(ordering: .relaxed) { early.add(1, ordering: .relaxed) }
        let cancelling = cancellingThread.load(ordering: .relaxed)
        if cancelling != 0, cancelling == Self.currentThread { late.add(1, ordering: .relaxed) }
    }

    /// How many deliveries reached the subscriber on the thread where its `cancel()` had returned.
    var lateOnCancellingThread: Int { late.load(ordering: .relaxed) }

    /// How many deliveries reached the subscriber before its `receive(subscription:)` began.
    var deliveriesBeforeSubscription: Int { early.load(ordering: .relaxed) }
}

/// A subscriber that passes every event through to `downstream`, the subscription included: it tells
/// `watch` of each event, and runs `afterCompletion` once it has passed the completion on (a
/// schedule lets its waiting senders go there, since a finished stream needs none of them).
struct ScheduleTap<Downstream: Subscriber>: Subscriber {
    /// What it passes on.
    typealias Input = Downstream.Input
    /// How the stream it passes on fails.
    typealias Failure = Downstream.Failure

    let downstream: Downstream
    let watch: DeliveryWatch
    let afterCompletion: @Sendable () -> Void

    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    /// Passes the subscription on, noting that it begins.
    func receive(subscription: any Subscription) {
        watch.subscriptionBegins()
        downstream.receive(subscription: subscription)
    }

    /// Passes the value on, noting the delivery.
    func receive(_ input: Input) -> Subscribers.Demand {
        watch.delivering()
        return downstream.receive(input)
    }

    /// Passes the completion on, noting the delivery, then runs `afterCompletion`.
    func receive(completion: Subscribers.Completion<Failure>) {
        watch.delivering()
        downstream.receive(completion: completion)
        afterCompletion()
    }
}

extension Publisher {
    /// Subscribes `subscriber` through a ``ScheduleTap``.
    func subscribe<S: Subscriber>(
        _ subscriber: S, watch: DeliveryWatch, afterCompletion: @escaping @Sendable () -> Void
    ) where S.Input == Output, S.Failure == Failure {
        subscribe(ScheduleTap(downstream: subscriber, watch: watch, afterCompletion: afterCompletion))
    }
}
