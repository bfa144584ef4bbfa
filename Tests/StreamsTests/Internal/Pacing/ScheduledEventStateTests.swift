@testable import Streams
import StreamsTesting
import Testing

/// The state shared by receive(on:), delay and timeout, on its own, single-threaded: every decision it
/// returns, without a lock, a scheduler or a delivery. Two threads are stood for by two identities.
@Suite struct ScheduledEventStateTests {
    typealias Downstream = TestSubscriber<Int, TimedFailure>
    typealias State = ScheduledEventState<Downstream, Void>
    typealias TimedState = ScheduledEventState<Downstream, TimeoutDeadline>

    struct TimedFailure: Error, Equatable {}

    /// An upstream subscription or a timer that the tests tell apart from the others.
    final class Stub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    func same(_ object: Any?, _ stub: Stub) -> Bool {
        (object as AnyObject?).map { $0 === stub } ?? false
    }

    /// What a deliverer hands downstream until it gives the delivery up.
    func delivered<Deadline>(_ state: inout ScheduledEventState<Downstream, Deadline>) -> [String] {
        var steps: [String] = []
        while true {
            switch state.next() {
            case .value(let value): steps.append("\(value)")
            case .completion(.finished): steps.append("finished")
            case .completion(.failure): steps.append("failure")
            case .stop: return steps
            }
        }
    }

    @Test func nothingGoesOutBeforeTheDownstreamHasItsSubscription() {
        var state = State()
        let accepted = state.receive(subscription: Stub())
        #expect(accepted)
        let enqueued = state.enqueue(.value(1))
        #expect(enqueued)
        // The action runs while the downstream is still in receive(subscription:): it waits.
        let deliversNow = state.release()
        #expect(!deliversNow)
        let scheduleDelivery = state.subscriptionDelivered()
        #expect(scheduleDelivery)
        #expect(delivered(&state) == ["1"])
        #expect(!state.delivering)
    }

    @Test func eachEventGoesOutAfterItsOwnActionInOrderByOneDelivererAtATime() {
        var state = State()
        _ = state.receive(subscription: Stub())
        _ = state.subscriptionDelivered()
        for value in 1...3 { _ = state.enqueue(.value(value)) }
        _ = state.enqueue(.completion(.finished))
        let first = state.release()
        // Another action runs while the first delivers: it leaves its event to the deliverer.
        let second = state.release()
        #expect(first && !second)
        #expect(delivered(&state) == ["1", "2"])
        _ = state.release()
        _ = state.release()
        #expect(delivered(&state) == ["3", "finished"])
        // After the completion, nothing more is taken.
        let late = state.enqueue(.value(4))
        #expect(!late)
    }

    @Test func cancelDropsWhatWaitsUnlessTheUpstreamHasCompleted() {
        var state = State()
        let upstream = Stub()
        _ = state.receive(subscription: upstream)
        _ = state.enqueue(.value(1))
        let cancelled = state.cancel()
        #expect(same(cancelled.subscription, upstream))
        #expect(cancelled.discarded.count == 1)
        #expect(state.requestTarget == nil)

        var completed = State()
        _ = completed.receive(subscription: Stub())
        _ = completed.enqueue(.completion(.finished))
        #expect(completed.cancel().subscription == nil)
        #expect(completed.requestTarget == nil)
        _ = completed.subscriptionDelivered()
        _ = completed.release()
        #expect(delivered(&completed) == ["finished"])
    }

    @Test func timeoutRestartsItsTimerOnTheFirstRequestAndEachValue() {
        var state = TimedState(deadline: TimeoutDeadline())
        let first = state.receiveTimed(subscription: Stub(), thread: me)
        #expect(first == 1)
        let timer = Stub()
        let kept = state.keep(timer, of: 1)
        #expect(kept)
        let request = state.request()
        #expect(same(request.restart?.stopped, timer))
        #expect(request.restart?.1 == 2)
        #expect(state.request().restart == nil)
        let value = state.enqueueTimed(.value(1))
        #expect(value?.restart == 3)
        let completion = state.enqueueTimed(.completion(.finished))
        #expect(completion.map { $0.restart == nil } == true)
        // A stale timer is not kept.
        let keptStale = state.keep(Stub(), of: 3)
        #expect(!keptStale)
    }

    @Test func timeoutRunningOutEndsTheStreamBeforeWhatWaits() {
        var state = TimedState(deadline: TimeoutDeadline())
        let upstream = Stub()
        _ = state.receiveTimed(subscription: upstream, thread: me)
        state.deadline.settingUp = .none
        _ = state.subscriptionDelivered()
        _ = state.enqueueTimed(.value(1))
        #expect(state.timerFired(generation: 1, thread: other) == nil)
        let ran = state.timerFired(generation: 2, thread: other)
        #expect(same(ran?.subscription, upstream))
        #expect(ran?.discarded.count == 1)
        let deliversNow = state.timedOut(.failure(TimedFailure()))
        #expect(deliversNow)
        #expect(delivered(&state) == ["failure"])
        // A cancel afterwards drops nothing more and finds no time-out to send.
        #expect(state.cancelTimed().subscription == nil)
    }

    @Test func timeoutCancelForgetsATimeOutNotYetDelivered() {
        var state = TimedState(deadline: TimeoutDeadline())
        _ = state.receiveTimed(subscription: Stub(), thread: me)
        _ = state.timerFired(generation: 1, thread: other)
        // The downstream is still in receive(subscription:): the time-out waits for it.
        let deliversNow = state.timedOut(.finished)
        #expect(!deliversNow)
        _ = state.cancelTimed()
        #expect(delivered(&state) == [])
    }
}
