@testable import Streams
import StreamsTesting
import Testing

/// The states of debounce, throttle and collect(.byTime) on their own, single-threaded: every
/// decision they return, without a lock, a scheduler or a delivery. Two threads are stood for by two
/// identities; the downstream is only held, never called.
@Suite struct PacedStateTests {
    typealias Downstream = TestSubscriber<Int, Never>

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

    /// Takes every queued event, as the thread holding the turn would.
    func drained<S: PacedState>(_ state: inout S) -> [S.Event] {
        var events: [S.Event] = []
        var waiter: TurnWaiter?
        while let (event, _) = state.nextEvent(handingOverTo: &waiter) { events.append(event) }
        return events
    }

    func values(_ events: [ScheduledEvent<Int, Never>]) -> [Int?] {
        events.map { event in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    // MARK: Debounce

    @Test func debouncePublishesOnlyTheLatestElementsTimerAndOnlyWithDemand() {
        var state = DebounceState(downstream: Downstream())
        #expect(state.receive(subscription: Stub()) != nil)
        #expect(state.receive(subscription: Stub()) == nil)
        let first = state.receive(1)
        let firstTimer = Stub()
        let kept = state.keep(firstTimer, of: first!.generation)
        #expect(kept)
        let second = state.receive(2)
        // The newer element replaces the older one's timer.
        #expect(same(second?.replaced, firstTimer))
        let keptStale = state.keep(Stub(), of: first!.generation)
        #expect(!keptStale)
        #expect(state.due(first!.generation, thread: me).duty == .none)
        // No demand: the element is dropped when its timer runs out.
        #expect(state.due(second!.generation, thread: me).duty == .none)
        #expect(state.currentValue == 2)
        state.request(.max(1))
        let third = state.receive(3)!
        #expect(state.due(third.generation, thread: me).duty == .drain)
        #expect(values(drained(&state)) == [3])
        #expect(state.demand == .none)
    }

    @Test func debounceCompletesAfterWhatWasQueuedAndLetsGoOfTheLatestElement() {
        var state = DebounceState(downstream: Downstream())
        _ = state.receive(subscription: Stub())
        state.request(.unlimited)
        let timer = Stub()
        _ = state.keep(timer, of: state.receive(1)!.generation)
        let completed = state.receiveCompletion()
        #expect(completed.accepted)
        #expect(same(completed.timer, timer))
        #expect(!state.receiveCompletion().accepted)
        #expect(state.completionDue(.finished, thread: me) == .drain)
        #expect(values(drained(&state)) == [nil])
        #expect(state.downstream == nil)
        #expect(state.currentValue == nil)
    }

    @Test func debounceCancelDropsWhatWaitsAndStopsTheCompletion() {
        var state = DebounceState(downstream: Downstream())
        let upstream = Stub()
        _ = state.receive(subscription: upstream)
        state.request(.unlimited)
        let generation = state.receive(1)!.generation
        let cancelled = state.cancel()
        #expect(same(cancelled.subscription, upstream))
        #expect(state.due(generation, thread: me).duty == .none)
        #expect(state.completionDue(.finished, thread: me) == .none)
    }

    // MARK: Throttle

    @Test func throttleSchedulesOneElementAtATimeKeepingTheLatestWhenAsked() {
        var latest = ThrottleState<Downstream, Int>(downstream: Downstream())
        _ = latest.receive(subscription: Stub())
        #expect(latest.receive(1, latest: true) == (true, nil))
        latest.request(.max(2))
        let first = latest.receive(2, latest: true)
        #expect(first.live)
        #expect(first.scheduling.map { $0 == nil } == true)
        #expect(latest.receive(3, latest: true).scheduling == nil)
        #expect(latest.pendingInput == 3)
        #expect(latest.emissionReadsClock)
        #expect(latest.emit(now: 10, thread: me) == .drain)
        #expect(values(drained(&latest)) == [3])
        #expect(latest.lastEmissionTime == 10)
        // The next element is scheduled after the last emission.
        #expect(latest.receive(4, latest: true).scheduling == .some(10))

        var earliest = ThrottleState<Downstream, Int>(downstream: Downstream())
        _ = earliest.receive(subscription: Stub())
        earliest.request(.max(1))
        _ = earliest.receive(1, latest: false)
        _ = earliest.receive(2, latest: false)
        #expect(earliest.pendingInput == 1)
    }

    @Test func throttleCompletionGoesOutWithTheScheduledElementOrOnItsOwn() {
        var state = ThrottleState<Downstream, Int>(downstream: Downstream())
        _ = state.receive(subscription: Stub())
        state.request(.max(1))
        _ = state.receive(1, latest: true)
        #expect(state.receive(completion: .finished) == false)
        #expect(state.receive(completion: .finished) == nil)
        #expect(!state.emissionReadsClock)
        #expect(state.emit(now: nil, thread: other) == .drain)
        #expect(values(drained(&state)) == [1, nil])

        var alone = ThrottleState<Downstream, Int>(downstream: Downstream())
        _ = alone.receive(subscription: Stub())
        #expect(alone.receive(completion: .finished) == true)
        #expect(alone.emit(now: nil, thread: me) == .drain)
        #expect(values(drained(&alone)) == [nil])
    }

    // MARK: Collect by time

    @Test func collectByTimeSendsWhatAnIntervalCollectedWhenWanted() {
        var state = CollectByTimeState<TestSubscriber<[Int], Never>, Int>(
            downstream: TestSubscriber(), count: nil)
        _ = state.receive(subscription: Stub())
        #expect(state.receive(1) == (true, false))
        #expect(state.receive(2) == (true, false))
        #expect(state.tick(thread: me) == .none)
        let change = state.add(.max(1), isDelivering: false, thread: me)
        #expect(change.subscription != nil && !change.scheduleFull && !change.scheduleFlush)
        #expect(state.tick(thread: me) == .drain)
        guard case .timed(let array)? = drained(&state).first else {
            Issue.record("the interval's array goes out")
            return
        }
        #expect(array == [1, 2])
    }

    @Test func collectByTimeOrCountSendsAFullArrayAtOnceAndTheRestAfterCompletion() {
        var state = CollectByTimeState<TestSubscriber<[Int], Never>, Int>(
            downstream: TestSubscriber(), count: 2)
        _ = state.receive(subscription: Stub())
        _ = state.add(.max(2), isDelivering: false, thread: me)
        #expect(state.receive(1) == (true, false))
        #expect(state.receive(2) == (true, true))
        // A second full array waits while a delivery is scheduled.
        _ = state.receive(3)
        #expect(state.receive(4) == (true, false))
        #expect(state.fullDeliveryDue(thread: me) == .drain)
        _ = state.receive(5)
        #expect(state.receive(completion: .finished).accepted)
        #expect(state.startFlushing(thread: me) == .none)
        var arrays: [[Int]] = []
        for event in drained(&state) {
            if case .full(let array) = event { arrays.append(array) }
            if case .timed(let array) = event { arrays.append(array) }
        }
        #expect(arrays == [[1, 2], [3, 4]])
        // Demand that comes back from a delivery lets the rest and the completion through at once.
        #expect(!state.add(.max(1), isDelivering: true, thread: me).scheduleFlush)
        let rest = drained(&state)
        #expect(rest.count == 2)
        #expect(rest.last?.isCompletion == true)
    }
}
