@testable import Streams
import Testing

/// FlatMap's state machine on its own, single-threaded: every decision it returns, for every
/// transition, without a lock, a thread or a subscriber. Two threads are stood for by two identities.
@Suite struct FlatMapStateTests {
    typealias State = FlatMapState<Int, MapFailure>

    struct MapFailure: Error, Equatable {}

    /// A subscription that the tests tell apart from the others.
    final class SubscriptionStub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    /// A state subscribed upstream, with `children` new publishers subscribed.
    func running(maxPublishers: Subscribers.Demand = .unlimited, children: Int = 2) -> (
        State, upstream: SubscriptionStub, children: [SubscriptionStub]
    ) {
        var state = State(maxPublishers: maxPublishers)
        let upstream = SubscriptionStub()
        #expect(state.receiveUpstream(subscription: upstream) == maxPublishers)
        let stubs = (0..<children).map { _ in SubscriptionStub() }
        for stub in stubs {
            guard let index = state.addChild() else {
                Issue.record("a live stream takes new publishers")
                continue
            }
            #expect(state.receive(subscription: stub, child: index) == .max(1))
        }
        return (state, upstream, stubs)
    }

    func identifiers(_ subscriptions: [any Subscription]) -> Set<ObjectIdentifier> {
        Set(subscriptions.map { ObjectIdentifier($0 as AnyObject) })
    }

    /// The values a drain delivers, until it stops, and how it stops.
    func drain(_ state: inout State, adding demand: Subscribers.Demand = .none) -> (values: [Int], end: String) {
        var values: [Int] = []
        var added = demand
        while true {
            switch state.next(adding: added) {
            case .deliver(let value, _):
                values.append(value)
                added = .none
            case .finish: return (values, "finish")
            case .fail: return (values, "fail")
            case .stop: return (values, "stop")
            }
        }
    }

    // MARK: Upstream and new publishers

    @Test func upstreamIsAskedForMaxPublishersAndOneMoreAsEachFinishes() {
        var (state, upstream, _) = running(maxPublishers: .max(2))
        #expect(state.receiveUpstream(subscription: SubscriptionStub()) == nil)
        let next = state.childDidFinish(0)
        #expect(next??.combineIdentifier == upstream.combineIdentifier)
        var (unlimited, _, _) = running()
        #expect(unlimited.childDidFinish(0).map { $0 == nil } == true)
    }

    @Test func aNewPublisherIsAskedForOneValueOrUnlimitedOnceDemandIs() {
        var (state, _, children) = running()
        let (drains, unleash) = state.request(.unlimited, thread: me)
        #expect(drains)
        #expect(identifiers(unleash) == identifiers(children))
        #expect(drain(&state).end == "stop")
        let index = state.addChild()
        #expect(index == 2)
        #expect(state.receive(subscription: SubscriptionStub(), child: 2) == .unlimited)
        #expect(state.receive(subscription: SubscriptionStub(), child: 2) == nil)
    }

    // MARK: Values

    @Test func valuesWithoutDemandAreBufferedAndGoDownInArrivalOrder() {
        var (state, _, _) = running()
        for (value, child) in [(1, 1), (2, 0), (3, 1)] {
            guard case .buffered = state.arrive(value, child: child, thread: me, holdingTurn: false) else {
                Issue.record("no demand: the value is buffered")
                return
            }
        }
        #expect(state.request(.max(2), thread: me).drain)
        #expect(drain(&state) == ([1, 2], "stop"))
        #expect(state.buffer.count == 1)
    }

    @Test func aValueFromInsideDownstreamIsNestedUnlessOlderValuesWait() {
        var (state, _, _) = running()
        _ = state.request(.max(3), thread: me)
        _ = drain(&state)
        guard case .deliver(unlimited: false) = state.arrive(1, child: 0, thread: me, holdingTurn: false) else {
            Issue.record("demand, no turn held: deliver")
            return
        }
        guard case .nested(unlimited: false) = state.arrive(2, child: 1, thread: me, holdingTurn: false) else {
            Issue.record("the holder re-enters: nested")
            return
        }
        guard case .wait = state.arrive(3, child: 1, thread: other, holdingTurn: false) else {
            Issue.record("another thread holds the turn: wait")
            return
        }
        #expect(state.demand == .max(1))
    }

    // MARK: Completion

    @Test func theStreamFinishesOnceUpstreamAndEveryNewPublisherHaveFinished() {
        var (state, _, _) = running()
        _ = state.arrive(7, child: 0, thread: me, holdingTurn: false)
        let live = state.upstreamDidFinish()
        #expect(live)
        _ = state.childDidFinish(0)
        let took = state.turn.takeIfFree(by: me)
        #expect(took)
        #expect(drain(&state) == ([], "stop"))
        _ = state.childDidFinish(1)
        // A buffered value holds the completion back until it has gone down.
        _ = state.request(.max(1), thread: me)
        #expect(drain(&state) == ([7], "finish"))
    }

    @Test func anUpstreamFailureCancelsEveryNewPublisherButANewPublishersSparesUpstream() {
        var (state, upstream, children) = running()
        let ending = state.fail(MapFailure(), sparing: nil, thread: me)
        #expect(ending?.deliver == true)
        #expect(ending.map { identifiers($0.cancel) } == identifiers(children))
        #expect(state.isCancellingForUpstreamFailure)
        let cancelled = identifiers(ending?.cancel ?? [])
        #expect(!cancelled.contains(ObjectIdentifier(upstream)))

        var (fromChild, _, others) = running()
        let childEnding = fromChild.fail(MapFailure(), sparing: 0, thread: me)
        #expect(childEnding.map { identifiers($0.cancel) } == [ObjectIdentifier(others[1])])
        #expect(!fromChild.isCancellingForUpstreamFailure)
        #expect(!fromChild.childMayFail(1))
    }

    @Test func aFailureDuringADeliveryIsLeftToTheHolderOfTheTurn() {
        var (state, _, _) = running()
        _ = state.request(.max(1), thread: other)
        #expect(state.fail(MapFailure(), sparing: 1, thread: me)?.deliver == false)
        #expect(drain(&state).end == "fail")
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndEveryNewPublisherOnceAndStopsLaterValues() {
        var (state, upstream, children) = running()
        let ending = state.cancel()
        #expect(ending.map { identifiers($0.cancel) } == identifiers(children + [upstream]))
        #expect(state.cancel() == nil)
        guard case .drop = state.arrive(1, child: 0, thread: me, holdingTurn: false) else {
            Issue.record("after cancel, values are dropped")
            return
        }
        #expect(state.addChild() == nil)
    }
}
