import Foundation
@testable import Streams
import Testing

extension ConcurrentScheduleTests {
    /// What the concurrent schedules found in the operators whose completion can wait for the turn
    /// while another thread delivers (`drop(untilOutputFrom:)`, `prefix(untilOutputFrom:)`,
    /// `switchToLatest()`), replayed deterministically: the subscriber, inside the first delivery,
    /// waits until the completion from the other thread waits for the turn, then cancels. Once its
    /// `cancel()` has returned nothing may reach it, so the waiting completion is dropped. (Before, it
    /// was delivered after the cancel.)
    @Suite struct WaitingCompletionRegressionTests {
        /// drop(untilOutputFrom:) passes on both publishers' completions, as Combine does: the other
        /// publisher's is being delivered when upstream's arrives.
        @Test func dropUntilOutputDropsAnUpstreamCompletionThatWaited() {
            let upstream = SelectionUpstream<Int, TestError>()
            let other = SelectionUpstream<Int, TestError>()
            let subscriber = CancellingInsideSubscriber(on: .firstCompletion)
            upstream.drop(untilOutputFrom: other).subscribe(subscriber)

            subscriber.run(
                { other.send(completion: .finished) },
                thenFromAnotherThread: { upstream.send(completion: .failure(TestError())) })
            #expect(subscriber.events == [.finished])
        }

        /// prefix(untilOutputFrom:): the other publisher's first value ends the stream while an
        /// upstream value is being delivered.
        @Test func prefixUntilOutputDropsTheFinishThatWaited() {
            let upstream = SelectionUpstream<Int, TestError>()
            let other = SelectionUpstream<Int, TestError>()
            let subscriber = CancellingInsideSubscriber(on: .firstValue)
            upstream.prefix(untilOutputFrom: other).subscribe(subscriber)

            subscriber.run({ upstream.send(1) }, thenFromAnotherThread: { other.send(0) })
            #expect(subscriber.events == [.value(1)])
            #expect(upstream.events == [.requested(.unlimited), .cancelled])
        }

        /// switchToLatest(): the outer publisher fails while the current inner publisher's value is
        /// being delivered.
        @Test func switchToLatestDropsTheOuterFailureThatWaited() {
            let outer = PassthroughSubject<Int, TestError>()
            let inner = SelectionUpstream<Int, TestError>()
            let subscriber = CancellingInsideSubscriber(on: .firstValue)
            outer.map { _ in inner }.switchToLatest().subscribe(subscriber)
            outer.send(0)

            subscriber.run({ inner.send(1) }, thenFromAnotherThread: { outer.send(completion: .failure(TestError())) })
            #expect(subscriber.events == [.value(1)])
            #expect(inner.events == [.requested(.unlimited), .cancelled])
        }
    }
}

/// A subscriber that asks for everything and records what it receives; inside its first value or
/// its first completion it lets ``run(_:thenFromAnotherThread:)`` go on on the other thread, waits
/// until that thread waits for the operator's turn, and cancels.
final class CancellingInsideSubscriber: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: `state` is a lock-guarded box; the other properties never change.
    typealias Input = Int
    typealias Failure = TestError

    /// When it cancels.
    enum Moment {
        case firstValue
        case firstCompletion
    }

    /// What it received.
    enum Event: Equatable {
        case value(Int)
        case finished
        case failed
    }

    private let state = LockedState<(subscription: (any Subscription)?, events: [Event])>((nil, []))
    private let moment: Moment
    private let inside = StressSignal()

    init(on moment: Moment) {
        self.moment = moment
    }

    /// Runs `first` on one thread and, once this subscriber is inside the delivery that `first` leads
    /// to, `second` on another.
    func run(_ first: @escaping @Sendable () -> Void, thenFromAnotherThread second: @escaping @Sendable () -> Void) {
        let inside = self.inside
        runOnThreads(2) { thread in
            if thread == 0 {
                first()
            } else {
                #expect(inside.wait())
                second()
            }
        }
    }

    /// What it received, in order.
    var events: [Event] { state.withLock { $0.events } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        record(.value(input), at: .firstValue)
        return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        record(completion == .finished ? .finished : .failed, at: .firstCompletion)
    }

    private func record(_ event: Event, at moment: Moment) {
        let (first, subscription) = state.withLock { state -> (Bool, (any Subscription)?) in
            state.events.append(event)
            return (state.events.count == 1, state.subscription)
        }
        guard first, moment == self.moment, let subscription else { return }
        inside.signal()
        let operation = subscription as! any NestingTurnDelivering
        let deadline = Date(timeIntervalSinceNow: 20)
        while !hasWaiters(operation), Date() < deadline { sched_yield() }
        let waiting = hasWaiters(operation)
        #expect(waiting, "the completion from the other thread waits for the turn")
        subscription.cancel()
    }

    private func hasWaiters(_ operation: some NestingTurnDelivering) -> Bool {
        operation.lock.withLock { operation.state.turn.hasWaiters }
    }
}
