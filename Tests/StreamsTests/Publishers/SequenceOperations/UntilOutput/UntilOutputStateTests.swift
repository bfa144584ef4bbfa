@testable import Streams
import Testing

/// The states of drop(untilOutputFrom:) and prefix(untilOutputFrom:) on their own, single-threaded:
/// every decision they return, without a lock, a thread or a subscriber.
@Suite struct UntilOutputStateTests {
    /// A subscription, or the subscriber to the other publisher, that the tests tell apart.
    final class Stub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    func same(_ object: Any?, _ stub: Stub) -> Bool {
        (object as AnyObject?).map { $0 === stub } ?? false
    }

    // MARK: drop(untilOutputFrom:)

    @Test func dropCountsDroppedElementsAgainstDemandUntilTheGateOpens() {
        var state = DropUntilOutputState<Stub>()
        let upstream = Stub()
        #expect(state.request(.max(2)) == nil)
        #expect(state.receiveUpstream(subscription: upstream) == .max(2))
        #expect(state.receiveUpstream(subscription: Stub()) == nil)
        #expect(state.receiveUpstreamValue(thread: me) == nil)
        #expect(state.pendingDemand == .max(1))
        let accepted = state.receiveOther(subscription: Stub())
        #expect(accepted)
        #expect(state.otherDidSend() == nil)
        #expect(state.otherSubscription == nil)
        #expect(state.receiveUpstreamValue(thread: me) == .taken)
        #expect(state.receiveUpstreamValue(thread: other) == .busy)
    }

    @Test func dropIgnoresAnElementAfterCancelWithoutCountingItAgainstDemand() {
        var state = DropUntilOutputState<Stub>()
        _ = state.receiveUpstream(subscription: Stub())
        _ = state.otherDidSend()
        #expect(state.pendingDemand == Subscribers.Demand.none)
        _ = state.cancel()
        #expect(state.receiveUpstreamValue(thread: me) == nil, "ignored, not a value beyond the demand")
        #expect(state.pendingDemand == Subscribers.Demand.none)
    }

    @Test func dropOtherCompletionFirstEndsTheStreamButALaterElementStillOpensTheGate() {
        var state = DropUntilOutputState<Stub>()
        let upstream = Stub()
        _ = state.receiveUpstream(subscription: upstream)
        _ = state.receiveOther(subscription: Stub())
        let completed = state.otherDidComplete()
        #expect(completed.map { same($0, upstream) } == true)
        let refused = state.receiveOther(subscription: Stub())
        #expect(!refused)
        _ = state.otherDidSend()
        #expect(state.triggered)
        // Every completion of the other publisher before its first element is passed on.
        #expect(state.otherDidComplete() == nil)
    }

    @Test func dropDetachesTheTriggerOnceUpstreamHasCompletedAndTheGateIsOpenOrOnCancel() {
        let trigger = Stub()
        var state = DropUntilOutputState<Stub>()
        state.trigger = trigger
        _ = state.receiveUpstream(subscription: Stub())
        let otherSubscription = Stub()
        _ = state.receiveOther(subscription: otherSubscription)
        let ending = state.upstreamDidComplete()
        #expect(ending.map { same($0.other, otherSubscription) } == true)
        #expect(ending.map { $0.trigger == nil } == true)
        #expect(state.otherDidSend() === trigger)
        #expect(state.trigger == nil)

        var cancelled = DropUntilOutputState<Stub>()
        cancelled.trigger = trigger
        let first = cancelled.cancel()
        #expect(first.map { $0.trigger === trigger } == true)
        #expect(cancelled.cancel() == nil)
    }

    // MARK: prefix(untilOutputFrom:)

    @Test func prefixPassesElementsUntilTheOthersFirstElementEndsTheStream() {
        let termination = Stub()
        var state = PrefixUntilOutputState<Stub>()
        state.termination = termination
        let upstream = Stub()
        #expect(state.receiveUpstream(subscription: upstream, thread: me) == .taken)
        _ = state.turn.release()
        #expect(state.receiveUpstreamValue(thread: me) == .taken)
        _ = state.turn.release()
        let accepted = state.otherStatus.accept(Stub())
        #expect(accepted)
        let ending = state.otherDidSend()
        #expect(ending.map { same($0.upstream, upstream) } == true)
        #expect(ending.map { $0.termination === termination } == true)
        #expect(state.otherDidSend() == nil)
        #expect(state.receiveUpstreamValue(thread: me) == nil)
    }

    @Test func prefixUpstreamCompletionCancelsTheOtherAndGoesOnIfLive() {
        var state = PrefixUntilOutputState<Stub>()
        _ = state.receiveUpstream(subscription: Stub(), thread: me)
        let otherSubscription = Stub()
        _ = state.otherStatus.accept(otherSubscription)
        let completed = state.upstreamDidComplete()
        #expect(completed.wasLive)
        #expect(same(completed.other, otherSubscription))
        #expect(!state.upstreamDidComplete().wasLive)
        let cancelled = state.cancel()
        #expect(cancelled.upstream == nil && cancelled.other == nil)
    }
}
