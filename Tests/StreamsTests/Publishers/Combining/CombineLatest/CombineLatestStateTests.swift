@testable import Streams
import Testing

/// CombineLatest's state machine on its own, single-threaded: every decision it returns, for every
/// transition, without a lock, a thread or a subscriber. Two threads are stood for by two identities.
@Suite struct CombineLatestStateTests {
    typealias Buffers = CombineLatest2Buffers<Int, String>
    typealias State = CombineLatestState<Buffers, LatestFailure>

    struct LatestFailure: Error, Equatable {}

    /// An upstream subscription that the tests tell apart from the others.
    final class UpstreamStub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    /// A state with both upstreams subscribed and downstream given its subscription.
    func established() -> (State, [UpstreamStub]) {
        var state = State(upstreamCount: 2)
        let stubs = [UpstreamStub(), UpstreamStub()]
        for (index, stub) in stubs.enumerated() {
            #expect(state.receive(subscription: stub, index: index) == Subscribers.Demand.none)
        }
        let took = state.establish(thread: me)
        #expect(!took)
        return (state, stubs)
    }

    func arrive(_ value: Int, in state: inout State, on thread: ThreadIdentity, holdingTurn: Bool = false)
        -> State.Arrival
    {
        state.arrive(value, store: { $0.a = $1 }, thread: thread, holdingTurn: holdingTurn)
    }

    func arrive(_ value: String, in state: inout State, on thread: ThreadIdentity, holdingTurn: Bool = false)
        -> State.Arrival
    {
        state.arrive(value, store: { $0.b = $1 }, thread: thread, holdingTurn: holdingTurn)
    }

    func delivered(_ arrival: State.Arrival) -> (Int, String)? {
        if case .deliver(let tuple) = arrival { return tuple }
        return nil
    }

    func isDone(_ arrival: State.Arrival) -> Bool {
        if case .done = arrival { return true }
        return false
    }

    func identifiers(_ upstreams: [State.Upstream]?) -> [ObjectIdentifier]? {
        upstreams?.compactMap { $0.subscription.map { ObjectIdentifier($0 as AnyObject) } }
    }

    // MARK: Subscriptions and demand

    @Test func aLateUpstreamIsAskedForEverythingRequestedAndRequestsGoToEveryUpstream() {
        var state = State(upstreamCount: 2)
        let a = UpstreamStub()
        #expect(state.receive(subscription: a, index: 0) == Subscribers.Demand.none)
        #expect(identifiers(state.request(.max(2))) == [ObjectIdentifier(a)])
        #expect(state.receive(subscription: UpstreamStub(), index: 1) == .max(2))
        #expect(state.receive(subscription: UpstreamStub(), index: 1) == nil)
        #expect(state.demand == .max(2))
    }

    // MARK: Values

    @Test func aTupleGoesDownOnceEveryUpstreamHasAValueAndOnlyWithDemand() {
        var (state, _) = established()
        #expect(isDone(arrive(1, in: &state, on: me)))
        #expect(isDone(arrive("x", in: &state, on: me)))
        // No demand: the latest values are kept, nothing is sent, now or later.
        _ = state.request(.max(1))
        #expect(state.turn.isHeld == false)
        guard let tuple = delivered(arrive(2, in: &state, on: me)) else {
            Issue.record("demand and every value: deliver")
            return
        }
        #expect(tuple == (2, "x"))
        #expect(state.demand == Subscribers.Demand.none)
        #expect(state.turn.holder == me)
        let released = state.releaseTurnIfIdle()
        #expect(released)
    }

    @Test func aValueFromInsideDownstreamIsKeptButSendsNothingAndOneFromAnotherThreadWaits() {
        var (state, _) = established()
        _ = state.request(.max(5))
        _ = arrive(1, in: &state, on: me)
        _ = delivered(arrive("x", in: &state, on: me))
        #expect(isDone(arrive(2, in: &state, on: me)))
        #expect(state.buffers.a == 2)
        guard case .wait = arrive("y", in: &state, on: other) else {
            Issue.record("another thread holds the turn: wait")
            return
        }
        #expect(state.buffers.b == "x")
        // Once it has the turn, the waiting thread's value goes down with the latest of the others.
        #expect(delivered(arrive("y", in: &state, on: other, holdingTurn: true)).map { $0 == (2, "y") } == true)
    }

    @Test func demandReturnedForATupleGoesToTheOthersUnlessUnlimited() {
        var (state, stubs) = established()
        _ = state.request(.max(1))
        #expect(identifiers(state.returned(.max(2))) == stubs.map { ObjectIdentifier($0) })
        #expect(state.demand == .max(3))
        #expect(state.requested == .max(3))
        _ = state.request(.unlimited)
        #expect(state.returned(.max(1)) == nil)
    }

    // MARK: Completion

    @Test func theStreamFinishesOnlyWhenEveryUpstreamHasFinished() {
        var (state, _) = established()
        #expect(state.complete(.finished, index: 0, thread: me) == nil)
        #expect(state.complete(.finished, index: 0, thread: me) == nil)
        let ending = state.complete(.finished, index: 1, thread: me)
        #expect(ending?.start == true)
        guard case .complete(.finished) = state.nextRelease() else {
            Issue.record("giving up the turn delivers the completion first")
            return
        }
        guard case .released(nil) = state.nextRelease() else {
            Issue.record("then the turn is given up")
            return
        }
    }

    @Test func aCompletionBeforeDownstreamHasItsSubscriptionWaitsForIt() {
        var state = State(upstreamCount: 2)
        let ending = state.complete(.failure(LatestFailure()), index: 0, thread: me)
        #expect(ending?.start == false)
        #expect(state.complete(.failure(LatestFailure()), index: 1, thread: me) == nil)
        let took = state.establish(thread: me)
        #expect(took)
        guard case .complete(.failure(LatestFailure())) = state.nextRelease() else {
            Issue.record("the failure goes down once downstream has its subscription")
            return
        }
    }

    @Test func aCompletionDuringADeliveryIsLeftToTheHolderOfTheTurn() {
        var (state, _) = established()
        _ = state.request(.max(1))
        _ = arrive(1, in: &state, on: other)
        _ = delivered(arrive("x", in: &state, on: other))
        #expect(state.complete(.failure(LatestFailure()), index: 0, thread: me)?.start == false)
        let idle = state.releaseTurnIfIdle()
        #expect(!idle)
        guard case .complete(.failure) = state.nextRelease() else {
            Issue.record("the holder delivers the failure")
            return
        }
    }

    // MARK: Cancellation

    @Test func cancelEndsOnceAndDropsACompletionNotYetDelivered() {
        var (state, stubs) = established()
        _ = arrive(1, in: &state, on: me)
        let ended = state.cancel()
        #expect(identifiers(ended?.released) == stubs.map { ObjectIdentifier($0) })
        #expect(ended?.buffers.a == 1)
        #expect(state.cancel() == nil)
        #expect(isDone(arrive(2, in: &state, on: me)))
        #expect(state.request(.max(1)).isEmpty)

        var pending = State(upstreamCount: 1)
        _ = pending.complete(.finished, index: 0, thread: me)
        _ = pending.cancel()
        _ = pending.establish(thread: me)
        guard case .released = pending.nextRelease() else {
            Issue.record("a cancelled stream delivers no completion")
            return
        }
    }
}
