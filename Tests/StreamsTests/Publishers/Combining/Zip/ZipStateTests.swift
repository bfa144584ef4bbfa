@testable import Streams
import Testing

/// Zip's state machine on its own, single-threaded: every decision it returns, for every transition,
/// without a lock, a thread or a subscriber. Two threads are stood for by two identities.
@Suite struct ZipStateTests {
    typealias State = ZipState<ZipBuffers2<Int, String>, ZipFailure>

    struct ZipFailure: Error, Equatable {}

    /// An upstream subscription that records what the state's decisions ask of it.
    final class UpstreamStub: Subscription {
        var requested: [Subscribers.Demand] = []
        var cancelled = 0

        func request(_ demand: Subscribers.Demand) { requested.append(demand) }

        func cancel() { cancelled += 1 }
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    /// A state with both upstreams subscribed.
    func subscribed() -> (State, UpstreamStub, UpstreamStub) {
        var state = State()
        let a = UpstreamStub()
        let b = UpstreamStub()
        #expect(state.receive(subscription: a, index: 0) == Subscribers.Demand.none)
        #expect(state.receive(subscription: b, index: 1) == Subscribers.Demand.none)
        return (state, a, b)
    }

    func arrive(_ value: Int, in state: inout State, on thread: ThreadIdentity) -> State.Arrival {
        state.receive(index: 0, thread: thread) { $0.a.append(value) }
    }

    func arrive(_ value: String, in state: inout State, on thread: ThreadIdentity) -> State.Arrival {
        state.receive(index: 1, thread: thread) { $0.b.append(value) }
    }

    func targets(_ targets: ZipTargets) -> [ObjectIdentifier] {
        var identifiers: [ObjectIdentifier] = []
        targets.forEach { identifiers.append(ObjectIdentifier($0 as AnyObject)) }
        return identifiers
    }

    // MARK: Subscriptions and demand

    @Test func aLateSubscriberIsAskedForEverythingRequestedAndASecondSubscriptionIsRefused() {
        var state = State()
        let a = UpstreamStub()
        #expect(state.receive(subscription: a, index: 0) == Subscribers.Demand.none)
        #expect(targets(state.request(.max(3))) == [ObjectIdentifier(a)])
        #expect(state.receive(subscription: UpstreamStub(), index: 1) == .max(3))
        #expect(state.receive(subscription: UpstreamStub(), index: 1) == nil)
    }

    @Test func demandAddedWhileAValueIsZippedIsOwedToItsUpstreamNotRequested() {
        var (state, a, _) = subscribed()
        _ = arrive(1, in: &state, on: me)
        guard case .deliver = arrive("x", in: &state, on: me) else {
            Issue.record("the second value should complete a tuple")
            return
        }
        // Upstream 1 is being processed: only upstream 0 is asked; 1 gets it back as its return value.
        #expect(targets(state.request(.max(2))) == [ObjectIdentifier(a)])
        let (ask, step) = state.next(after: .none)
        #expect(targets(ask).isEmpty)
        guard case .stop(let waiter, let owed) = step else {
            Issue.record("nothing else is due: \(step)")
            return
        }
        #expect(waiter == nil)
        #expect(owed == .max(2))
        #expect(!state.turn.isHeld)
    }

    // MARK: Values

    @Test func aTupleGoesDownWhenEveryQueueHoldsAValueOldestFirst() {
        var (state, _, _) = subscribed()
        #expect(isQueued(arrive(1, in: &state, on: me)))
        #expect(isQueued(arrive(2, in: &state, on: me)))
        guard case .deliver(let tuple) = arrive("x", in: &state, on: me) else {
            Issue.record("expected a tuple")
            return
        }
        #expect(tuple == (1, "x"))
        #expect(state.turn.holder == me)
        #expect(state.processing == 1)
        #expect(isQueued(arrive("y", in: &state, on: me)))
        guard case (_, .deliver(let second)) = state.next(after: .none) else {
            Issue.record("the queued pair should go down next")
            return
        }
        #expect(second == (2, "y"))
        guard case (_, .stop(nil, owed: .none)) = state.next(after: .none) else {
            Issue.record("the turn should end")
            return
        }
        #expect(!state.turn.isHeld)
        #expect(state.buffers.a.isEmpty && state.buffers.b.isEmpty)
    }

    @Test func aValueThatCompletesATupleWhileAnotherThreadDeliversWaits() {
        var (state, _, _) = subscribed()
        _ = arrive(1, in: &state, on: other)
        guard case .deliver = arrive("x", in: &state, on: other) else {
            Issue.record("expected a tuple")
            return
        }
        _ = arrive(2, in: &state, on: me)
        guard case .wait = arrive("y", in: &state, on: me) else {
            Issue.record("another thread holds the turn: wait")
            return
        }
        // The value is queued; the holder, re-entering, only queues too.
        #expect(state.buffers.b.count == 1)
        #expect(isQueued(arrive(3, in: &state, on: other)))
    }

    // MARK: Completion

    @Test func finishingWithAnEmptyQueueFinishesAndCancelsTheOthers() {
        var (state, _, b) = subscribed()
        guard case .finish(let cancel, _) = state.finish(index: 0, thread: me) else {
            Issue.record("no tuple can follow: finish")
            return
        }
        #expect(targets(cancel) == [ObjectIdentifier(b)])
        #expect(state.isTerminal)
        #expect(isDropped(arrive("late", in: &state, on: me)))
    }

    @Test func finishingWithAValueQueuedWaitsForItsTuple() {
        var (state, _, _) = subscribed()
        _ = arrive(1, in: &state, on: me)
        #expect(state.finish(index: 0, thread: me) == nil)
        #expect(isDropped(arrive(2, in: &state, on: me)))
        guard case .deliver(let tuple) = arrive("x", in: &state, on: me) else {
            Issue.record("the queued value still makes a tuple")
            return
        }
        #expect(tuple == (1, "x"))
        guard case (_, .finish) = state.next(after: .none) else {
            Issue.record("then the stream finishes")
            return
        }
    }

    @Test func aFailureIsDeliveredAtOnceOrByTheHolderOfTheTurn() {
        var (state, _, _) = subscribed()
        let ending = state.fail(ZipFailure(), index: 1, thread: me)
        #expect(ending?.deliver == true)
        #expect(ending.map { targets($0.cancel).count } == 2)
        #expect(state.fail(ZipFailure(), index: 0, thread: me) == nil)

        var (busy, _, _) = subscribed()
        _ = arrive(1, in: &busy, on: other)
        _ = arrive("x", in: &busy, on: other)
        #expect(busy.fail(ZipFailure(), index: 0, thread: me)?.deliver == false)
        guard case (_, .fail(let failure)) = busy.next(after: .none) else {
            Issue.record("the holder delivers the failure")
            return
        }
        #expect(failure == ZipFailure())
    }

    // MARK: Cancellation

    @Test func cancelEndsOnceAndDropsAPendingFailure() {
        var (state, a, b) = subscribed()
        _ = arrive(1, in: &state, on: me)
        let ended = state.cancel()
        #expect(ended.map { targets($0.cancel) } == [ObjectIdentifier(a), ObjectIdentifier(b)])
        #expect(ended?.released.a.count == 1)
        #expect(state.cancel() == nil)
        #expect(targets(state.request(.max(1))).isEmpty)

        var (busy, _, _) = subscribed()
        _ = arrive(1, in: &busy, on: other)
        _ = arrive("x", in: &busy, on: other)
        _ = busy.fail(ZipFailure(), index: 0, thread: me)
        #expect(busy.cancel() == nil)
        guard case (_, .stop) = busy.next(after: .none) else {
            Issue.record("a cancelled stream delivers no failure")
            return
        }
    }

    func isQueued(_ arrival: State.Arrival) -> Bool {
        if case .queued = arrival { return true }
        return false
    }

    func isDropped(_ arrival: State.Arrival) -> Bool {
        if case .dropped = arrival { return true }
        return false
    }
}
