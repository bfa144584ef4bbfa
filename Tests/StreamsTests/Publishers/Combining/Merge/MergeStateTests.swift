@testable import Streams
import Testing

/// Merge's state machine on its own, single-threaded: every decision it returns, for every transition,
/// without a lock, a thread or a subscriber. Two threads are stood for by two identities.
@Suite struct MergeStateTests {
    typealias State = MergeState<Int, MergeFailure>

    struct MergeFailure: Error, Equatable {}

    /// An upstream subscription that the tests tell apart from the others.
    final class UpstreamStub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    /// A state with `count` upstreams subscribed.
    func subscribed(_ count: Int = 2) -> (State, [UpstreamStub]) {
        var state = State(upstreamCount: count)
        let stubs = (0..<count).map { _ in UpstreamStub() }
        for (index, stub) in stubs.enumerated() {
            #expect(state.receive(subscription: stub, index: index) == .max(1))
        }
        return (state, stubs)
    }

    func identifiers(_ subscriptions: [any Subscription]) -> [ObjectIdentifier] {
        subscriptions.map { ObjectIdentifier($0 as AnyObject) }
    }

    /// The values a drain delivers, with the upstream asked for one more after each, until it stops.
    func drain(_ state: inout State, adding demand: Subscribers.Demand = .none) -> (
        values: [Int], askedAgain: [ObjectIdentifier?], end: String
    ) {
        var values: [Int] = []
        var askedAgain: [ObjectIdentifier?] = []
        var added = demand
        while true {
            switch state.next(adding: added) {
            case .deliver(let value, let source):
                values.append(value)
                askedAgain.append(source.map { ObjectIdentifier($0 as AnyObject) })
                added = .none
            case .finish: return (values, askedAgain, "finish")
            case .fail: return (values, askedAgain, "fail")
            case .stop: return (values, askedAgain, "stop")
            }
        }
    }

    // MARK: Subscriptions and demand

    @Test func eachUpstreamIsAskedForOneValueOrUnlimitedOnceDemandIs() {
        var state = State(upstreamCount: 2)
        let a = UpstreamStub()
        #expect(state.receive(subscription: a, index: 0) == .max(1))
        #expect(state.receive(subscription: UpstreamStub(), index: 0) == nil)
        let (drains, unleash) = state.request(.unlimited, thread: me)
        #expect(drains)
        #expect(identifiers(unleash) == [ObjectIdentifier(a)])
        #expect(drain(&state).end == "stop")
        #expect(state.receive(subscription: UpstreamStub(), index: 1) == .unlimited)
        // Demand that is already unlimited unleashes nobody again.
        #expect(state.request(.max(1), thread: me).unleash.isEmpty)
    }

    // MARK: Values

    @Test func aValueWithDemandGoesDownAtOnceAndEndsTheTurnWhenNothingElseIsDue() {
        var (state, _) = subscribed()
        _ = state.request(.max(2), thread: me)
        _ = drain(&state)
        guard case .deliver(unlimited: false) = state.arrive(1, index: 0, thread: me, holdingTurn: false) else {
            Issue.record("demand is there: deliver")
            return
        }
        #expect(state.demand == .max(1))
        #expect(state.turn.holder == me)
        let ended = state.endTurnIfIdle(adding: .none)
        #expect(ended)
        #expect(!state.turn.isHeld)
    }

    @Test func valuesWithoutDemandWaitInTheirSlotsTheLatestReplacingAndGoDownInUpstreamOrder() {
        var (state, stubs) = subscribed(3)
        for (value, index) in [(1, 2), (2, 0), (3, 2)] {
            guard case .waiting = state.arrive(value, index: index, thread: me, holdingTurn: false) else {
                Issue.record("no demand: the value waits")
                return
            }
        }
        #expect(state.waitingCount == 2)
        #expect(state.request(.max(5), thread: me).drain)
        let drained = drain(&state)
        #expect(drained.values == [2, 3])
        #expect(drained.askedAgain == [ObjectIdentifier(stubs[0]), ObjectIdentifier(stubs[2])])
        #expect(drained.end == "stop")
        #expect(state.demand == .max(3))
    }

    @Test func aValueFromInsideDownstreamIsNestedAndOneFromAnotherThreadWaits() {
        var (state, _) = subscribed()
        _ = state.request(.max(3), thread: me)
        _ = drain(&state)
        _ = state.arrive(1, index: 0, thread: me, holdingTurn: false)
        guard case .nested(unlimited: false) = state.arrive(2, index: 1, thread: me, holdingTurn: false) else {
            Issue.record("the holder re-enters: nested")
            return
        }
        guard case .wait = state.arrive(3, index: 1, thread: other, holdingTurn: false) else {
            Issue.record("another thread holds the turn: wait")
            return
        }
        #expect(state.demand == .max(1))
    }

    // MARK: Completion

    @Test func theStreamFinishesWhenEveryUpstreamHasFinishedAndNoValueWaits() {
        var (state, _) = subscribed()
        _ = state.arrive(7, index: 1, thread: me, holdingTurn: false)
        let finishes = [
            state.finish(index: 0, thread: me), state.finish(index: 0, thread: me), state.finish(index: 1, thread: me),
        ]
        // The second upstream's completion is the last: its thread delivers it.
        #expect(finishes == [false, false, true])
        // Nothing was asked for: the waiting value holds the completion back.
        #expect(drain(&state).end == "stop")
        #expect(state.request(.max(1), thread: me).drain)
        let drained = drain(&state)
        #expect(drained.values == [7])
        #expect(drained.end == "finish")
        #expect(state.isTerminal)
    }

    @Test func aFailureCancelsTheOthersAndIsDeliveredByWhoeverHoldsTheTurn() {
        var (state, stubs) = subscribed(3)
        let failing = state.fail(MergeFailure(), index: 1, thread: me)
        #expect(failing?.deliver == true)
        #expect(failing.map { identifiers($0.cancel) } == [ObjectIdentifier(stubs[0]), ObjectIdentifier(stubs[2])])
        #expect(state.fail(MergeFailure(), index: 0, thread: me) == nil)
        #expect(state.cancel() == nil)

        var (busy, _) = subscribed()
        _ = busy.request(.max(1), thread: other)
        #expect(busy.fail(MergeFailure(), index: 0, thread: me)?.deliver == false)
        #expect(drain(&busy).end == "fail")
    }

    // MARK: Cancellation

    @Test func cancelEndsOnceAndForgetsAFailureNotYetDelivered() {
        var (state, stubs) = subscribed()
        let slots = state.cancel()
        #expect(slots.map { identifiers($0.compactMap(\.subscription)) } == stubs.map { ObjectIdentifier($0) })
        #expect(state.cancel() == nil)
        guard case .drop = state.arrive(1, index: 0, thread: me, holdingTurn: false) else {
            Issue.record("after cancel, values are dropped")
            return
        }

        var (busy, _) = subscribed()
        _ = busy.request(.max(1), thread: other)
        _ = busy.fail(MergeFailure(), index: 0, thread: me)
        #expect(busy.cancel() == nil)
        #expect(drain(&busy).end == "stop")
    }
}
