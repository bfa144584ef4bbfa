@testable import Streams
import Testing

/// SwitchToLatest's state machine on its own, single-threaded: every decision it returns, for every
/// transition, without a lock, a thread or a subscriber. Two threads are stood for by two identities.
@Suite struct SwitchToLatestStateTests {
    /// A subscription that the tests tell apart from the others.
    final class SubscriptionStub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    func same(_ subscription: (any Subscription)?, _ stub: SubscriptionStub) -> Bool {
        subscription.map { ObjectIdentifier($0 as AnyObject) == ObjectIdentifier(stub) } ?? false
    }

    /// A state with the outer subscription and inner publisher 1 subscribed.
    func running() -> (SwitchToLatestState, outer: SubscriptionStub, inner: SubscriptionStub) {
        var state = SwitchToLatestState()
        let outer = SubscriptionStub()
        let inner = SubscriptionStub()
        let accepted = state.receiveOuter(subscription: outer)
        #expect(accepted)
        #expect(state.receiveOuterValue()?.index == 1)
        #expect(state.receiveInner(subscription: inner, index: 1) == Subscribers.Demand.none)
        return (state, outer, inner)
    }

    @Test func aNewInnerPublisherReplacesTheCurrentOneAndGetsTheOutstandingDemand() {
        var (state, _, inner) = running()
        #expect(same(state.request(.max(3)), inner))
        let next = state.receiveOuterValue()
        #expect(next?.index == 2)
        #expect(same(next?.replaced, inner))
        // The replaced publisher's late subscription is refused; the new one gets the demand.
        #expect(state.receiveInner(subscription: SubscriptionStub(), index: 1) == nil)
        #expect(state.receiveInner(subscription: SubscriptionStub(), index: 2) == .max(3))
    }

    @Test func onlyTheCurrentInnerPublishersValuesGoDown() {
        var (state, _, _) = running()
        _ = state.request(.max(2))
        guard case .deliver(.taken) = state.receiveValue(from: 1, thread: me) else {
            Issue.record("the current publisher's value goes down")
            return
        }
        guard case .wait = state.receiveValue(from: 1, thread: other) else {
            Issue.record("another thread holds the turn: wait")
            return
        }
        guard case .deliver(.nested) = state.receiveValue(from: 1, thread: me) else {
            Issue.record("the holder re-enters: nested")
            return
        }
        #expect(state.demand == Subscribers.Demand.none)
        let delivered = state.delivered(more: .max(1), from: 1, releasingTurn: true)
        #expect(delivered.waiter == nil)
        #expect(delivered.successor == nil, "the publisher is still current: the demand goes back to it")
        _ = state.receiveOuterValue()
        guard case .drop = state.receiveValue(from: 1, thread: me) else {
            Issue.record("a replaced publisher's value is dropped")
            return
        }
    }

    /// A state delivering a value of inner publisher 1 (all the demand there was), which publisher 2
    /// has just replaced.
    func deliveringAReplacedPublishersValue() -> SwitchToLatestState {
        var (state, _, _) = running()
        _ = state.request(.max(1))
        guard case .deliver(.taken) = state.receiveValue(from: 1, thread: me) else {
            Issue.record("the current publisher's value goes down")
            return state
        }
        #expect(state.receiveOuterValue()?.index == 2)
        return state
    }

    @Test func demandReturnedForAValueOfAPublisherReplacedMeanwhileGoesToItsSuccessor() {
        var state = deliveringAReplacedPublishersValue()
        let successor = SubscriptionStub()
        #expect(state.receiveInner(subscription: successor, index: 2) == Subscribers.Demand.none)
        let delivered = state.delivered(more: .max(2), from: 1, releasingTurn: true)
        #expect(same(delivered.successor, successor), "the successor is asked for the returned demand")
        #expect(state.demand == .max(2))
        #expect(!state.turn.isHeld)
    }

    @Test func demandReturnedBeforeTheSuccessorsSubscriptionArrivesIsAskedOfItThen() {
        var state = deliveringAReplacedPublishersValue()
        let delivered = state.delivered(more: .max(2), from: 1, releasingTurn: true)
        #expect(delivered.successor == nil, "no subscription to ask yet")
        #expect(state.receiveInner(subscription: SubscriptionStub(), index: 2) == .max(2))
    }

    @Test func aValueThatWaitedIsDroppedIfItsPublisherWasReplacedMeanwhile() {
        var (state, _, _) = running()
        _ = state.request(.max(1))
        state.turn.take(by: me)
        _ = state.receiveOuterValue()
        guard case .drop(nil) = state.resumeValue(from: 1) else {
            Issue.record("the replaced publisher's value is dropped and the turn given up")
            return
        }
        #expect(!state.turn.isHeld)
    }

    @Test func theOuterFinishingWaitsForTheCurrentInnerPublisher() {
        var (state, outer, inner) = running()
        let ending = state.receiveOuterCompletion(failed: false, thread: me)
        #expect(ending.delivery == nil)
        #expect(same(ending.release, outer))
        let innerEnding = state.receiveInnerCompletion(from: 1, failed: false, thread: me)
        #expect(innerEnding.delivery == .taken)
        #expect(same(innerEnding.release, inner))
        #expect(innerEnding.cancel == nil)
    }

    @Test func anInnerFailureCancelsTheOuterAndEndsTheStream() {
        var (state, outer, _) = running()
        let ending = state.receiveInnerCompletion(from: 1, failed: true, thread: other)
        #expect(same(ending.cancel, outer))
        #expect(ending.delivery == .taken)
        let later = state.receiveOuterCompletion(failed: false, thread: me)
        #expect(later.delivery == nil)
        #expect(state.receiveOuterValue() == nil)
    }

    @Test func cancelHandsBackBothSubscriptionsOnce() {
        var (state, outer, inner) = running()
        let cancelled = state.cancel()
        #expect(same(cancelled.inner, inner))
        #expect(same(cancelled.outer, outer))
        let again = state.cancel()
        #expect(again.inner == nil && again.outer == nil)
        #expect(state.receiveOuterValue() == nil)
    }
}
