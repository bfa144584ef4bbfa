import Foundation
@testable import Streams
import Testing

extension ConcurrentScheduleTests {
    /// What the concurrent schedules found in the until-output operators, replayed deterministically.
    @Suite struct UntilOutputRegressionTests {
        typealias Operator = Publishers.DropUntilOutput<
            SelectionUpstream<Int, TestError>, SelectionUpstream<Int, TestError>
        >

        /// drop(untilOutputFrom:) passes on both publishers' completions, as Combine does. Here the
        /// other publisher's completion is being delivered on one thread when upstream's arrives on
        /// another and waits for the turn; the subscriber cancels inside the first. Once its
        /// `cancel()` has returned nothing may reach it: the waiting completion is dropped. (Before,
        /// it was delivered after the cancel.)
        @Test func aCompletionWaitingForTheDeliveryInWhichTheSubscriberCancelsIsDropped() {
            let upstream = SelectionUpstream<Int, TestError>()
            let other = SelectionUpstream<Int, TestError>()
            let inside = StressSignal()
            let subscriber = CancellingOnCompletionSubscriber { subscription in
                inside.signal()
                // Wait until the other thread, past the operator's checks, waits for the turn.
                let inner = subscription as! Operator.Inner<CancellingOnCompletionSubscriber>
                let deadline = DispatchTime.now() + .seconds(20)
                while !inner.lock.withLock({ inner.state.turn.hasWaiters }), DispatchTime.now() < deadline {
                    sched_yield()
                }
                #expect(inner.lock.withLock { inner.state.turn.hasWaiters }, "the upstream completion waits")
                subscription.cancel()
            }
            upstream.drop(untilOutputFrom: other).subscribe(subscriber)

            runOnThreads(2) { thread in
                if thread == 0 {
                    other.send(completion: .finished)
                } else {
                    #expect(inside.wait())
                    upstream.send(completion: .failure(TestError()))
                }
            }
            #expect(subscriber.completions == [.finished])
        }
    }
}

/// A subscriber that asks for everything, records its completions, and runs `onFirstCompletion`
/// with its subscription inside the first.
final class CancellingOnCompletionSubscriber: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: `state` is a lock-guarded box; the hook is only called, never changed.
    typealias Input = Int
    typealias Failure = TestError

    private let state = LockedState<
        (subscription: (any Subscription)?, completions: [Subscribers.Completion<TestError>])
    >(
        (nil, []))
    private let onFirstCompletion: (any Subscription) -> Void

    init(onFirstCompletion: @escaping (any Subscription) -> Void) {
        self.onFirstCompletion = onFirstCompletion
    }

    /// The completions received, in order.
    var completions: [Subscribers.Completion<TestError>] { state.withLock { $0.completions } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<TestError>) {
        let (first, subscription) = state.withLock { state -> (Bool, (any Subscription)?) in
            state.completions.append(completion)
            return (state.completions.count == 1, state.subscription)
        }
        if first, let subscription { onFirstCompletion(subscription) }
    }
}
