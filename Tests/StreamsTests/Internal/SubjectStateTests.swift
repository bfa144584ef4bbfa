@testable import Streams
import Testing

/// A subject's state machine on its own, single-threaded: who delivers, what is queued behind a
/// delivery, where subscribers arriving or leaving go, and what a completion leaves behind. Two
/// threads are stood for by two identities; the conduits are real, but nothing is delivered to them.
@Suite struct SubjectStateTests {
    typealias State = SubjectState<Int, Failure>

    struct Failure: Error, Equatable {}

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    /// The broadcaster the conduits belong to; the tests drive their own state instead of its.
    let broadcaster = SubjectBroadcaster<Int, Failure>()

    func conduit() -> SubjectConduit<Int, Failure> {
        SubjectConduitTo(
            broadcaster: broadcaster,
            downstream: Subscribers.Sink<Int, Failure>(
                receiveCompletion: { _ in }, receiveValue: { _ in }))
    }

    /// What `next()` hands out until it gives the turn up, written as short words.
    func drain(_ state: inout State) -> [String] {
        var steps: [String] = []
        while true {
            switch state.next() {
            case .handOver(let waiter):
                steps.append(waiter == nil ? "release" : "hand over")
                return steps
            case .work(.value(let value), _): steps.append("value \(value)")
            case .work(.completion(.finished), _): steps.append("finished")
            case .work(.completion(.failure), _): steps.append("failure")
            case .work(.currentValue, let current): steps.append("current \(current.map(String.init) ?? "none")")
            case .work(.update, _): steps.append("update")
            case .work(.attach(let conduit), _):
                state.subscribers.append(conduit)
                steps.append("attach")
            case .work(.detach(let conduit), _):
                let removed = state.subscribers.remove(conduit)
                steps.append(removed ? "detach" : "detach missing")
            }
        }
    }

    // MARK: Sending

    @Test func aValueWithNobodySubscribedIsDroppedWithoutTakingTheTurn() {
        var state = State(currentValue: nil)
        let outcome = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome == .done)
        #expect(!state.turn.isHeld)
    }

    @Test func aValueWithSubscribersTakesTheTurnForTheSender() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome == .deliver)
        #expect(state.turn.holder == me)
        let released = state.releaseIfIdle()
        #expect(released)
        #expect(!state.turn.isHeld)
    }

    @Test func valuesSentByTheHolderQueueInOrderAndOtherThreadsWait() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome1 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome1 == .deliver)
        let outcome2 = state.send(2, thread: me, storingAfterCompletion: false)
        #expect(outcome2 == .done)
        let outcome3 = state.send(3, thread: me, storingAfterCompletion: false)
        #expect(outcome3 == .done)
        let outcome4 = state.send(4, thread: other, storingAfterCompletion: false)
        #expect(outcome4 == .wait)
        let idle = state.releaseIfIdle()
        #expect(!idle)
        #expect(drain(&state) == ["value 2", "value 3", "release"])
        #expect(!state.turn.isHeld)
        #expect(state.pending.isEmpty && state.pendingStart == 0 && state.pendingEnd == 0)
    }

    @Test func theCurrentValueIsStoredAsSentAndAfterCompletionOnlyWhenAsked() {
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        storage.initialize(to: 0)
        defer { storage.deallocate() }
        var state = State(currentValue: storage)
        let outcome5 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome5 == .done)
        #expect(storage.pointee == 1)
        _ = state.attach(conduit(), thread: me)
        let outcome6 = state.send(2, thread: me, storingAfterCompletion: false)
        #expect(outcome6 == .deliver)
        let outcome7 = state.send(3, thread: me, storingAfterCompletion: false)
        #expect(outcome7 == .done)
        #expect(storage.pointee == 3)
        let outcome8 = state.send(4, thread: other, storingAfterCompletion: false)
        #expect(outcome8 == .wait)
        #expect(storage.pointee == 3, "a waiting sender stores its value once it holds the turn")
        _ = drain(&state)
        let delivers = state.sendAfterWaiting(4, storingAfterCompletion: false)
        #expect(delivers)
        #expect(storage.pointee == 4)
        let outcome9 = state.finish(.finished)
        #expect(outcome9 != nil)
        let outcome10 = state.send(5, thread: me, storingAfterCompletion: false)
        #expect(outcome10 == .done)
        #expect(storage.pointee == 4)
        let outcome11 = state.send(6, thread: me, storingAfterCompletion: true)
        #expect(outcome11 == .done)
        #expect(storage.pointee == 6)
    }

    // MARK: Completion

    @Test func aCompletionTakesTheSubscribersOnceAndLaterOnesAreIgnored() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        _ = state.attach(conduit(), thread: me)
        let outcome12 = state.send(completion: .failure(Failure()), thread: me)
        #expect(outcome12 == .deliver)
        let recipients = state.finish(.failure(Failure()))
        #expect(recipients?.count == 2)
        #expect(state.subscribers.isEmpty)
        #expect(state.completion == .failure(Failure()))
        let outcome13 = state.finish(.finished)
        #expect(outcome13 == nil)
        let outcome14 = state.send(completion: .finished, thread: me)
        #expect(outcome14 == .done)
        #expect(state.completion == .failure(Failure()))
    }

    @Test func aCompletionSentInsideADeliveryIsRecordedAtOnceAndDeliveredAfterIt() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome15 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome15 == .deliver)
        let outcome16 = state.send(completion: .finished, thread: me)
        #expect(outcome16 == .done)
        #expect(state.isFinished)
        let outcome17 = state.send(2, thread: me, storingAfterCompletion: false)
        #expect(outcome17 == .done)
        #expect(drain(&state) == ["finished", "release"])
    }

    @Test func aSubscriberArrivingAfterCompletionGetsTheCompletion() {
        var state = State(currentValue: nil)
        _ = state.finish(.finished)
        let completion = state.attach(conduit(), thread: me)
        #expect(completion == .finished)
        #expect(state.subscribers.isEmpty && state.arrivals.isEmpty)
    }

    // MARK: Subscribers arriving and leaving

    @Test func subscribersArrivingWhileAnotherThreadDeliversWaitUntilBetweenDeliveries() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome18 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome18 == .deliver)
        let outcome19 = state.attach(conduit(), thread: other)
        #expect(outcome19 == nil)
        #expect(state.subscribers.count == 1)
        #expect(state.arrivals.count == 1)
        let idle = state.releaseIfIdle()
        #expect(!idle, "the holder admits arrivals before giving the turn up")
        #expect(drain(&state) == ["release"])
        #expect(state.subscribers.count == 2)
        #expect(state.arrivals.isEmpty)
    }

    @Test func aSubscriberAttachingInsideADeliveryIsQueuedBehindIt() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome20 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome20 == .deliver)
        let outcome21 = state.attach(conduit(), thread: me)
        #expect(outcome21 == nil)
        let outcome22 = state.send(2, thread: me, storingAfterCompletion: false)
        #expect(outcome22 == .done)
        #expect(state.subscribers.count == 1)
        #expect(drain(&state) == ["attach", "value 2", "release"])
        #expect(state.subscribers.count == 2)
    }

    @Test func cancellingWhileFreeRemovesAtOnceAndWhileDeliveringQueuesTheRemoval() {
        var state = State(currentValue: nil)
        let first = conduit()
        let second = conduit()
        _ = state.attach(first, thread: me)
        _ = state.attach(second, thread: me)
        let removedAtOnce = state.remove(first)
        #expect(removedAtOnce)
        #expect(state.subscribers.count == 1)
        let outcome23 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome23 == .deliver)
        let removedNow = state.remove(second)
        #expect(!removedNow)
        #expect(state.subscribers.count == 1, "the list the holder walks does not change under it")
        #expect(drain(&state) == ["detach", "release"])
        #expect(state.subscribers.isEmpty)
    }

    @Test func cancellingAnArrivalRemovesItAtOnceEvenWhileDelivering() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome24 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome24 == .deliver)
        let arrival = conduit()
        _ = state.attach(arrival, thread: other)
        let removed = state.remove(arrival)
        #expect(removed)
        #expect(state.arrivals.isEmpty)
        let idle = state.releaseIfIdle()
        #expect(idle)
    }

    // MARK: Current value and updates

    @Test func theCurrentValueGoesOnlyToASubscriberStillAttached() {
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        storage.initialize(to: 7)
        defer { storage.deallocate() }
        var state = State(currentValue: storage)
        let attached = conduit()
        let gone = conduit()
        _ = state.attach(attached, thread: me)
        let outcome25 = state.claimTurn(by: me, orQueue: .currentValue(attached))
        #expect(outcome25 == .deliver)
        state.enqueue(.currentValue(attached))
        state.enqueue(.currentValue(gone))
        #expect(drain(&state) == ["current 7", "current none", "release"])
    }

    @Test func anUpdateInsideADeliveryIsQueuedAndReadsTheLatestValueWhenItRuns() {
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        storage.initialize(to: 1)
        defer { storage.deallocate() }
        var state = State(currentValue: storage)
        _ = state.attach(conduit(), thread: me)
        let outcome26 = state.update({ $0 += 1 }, thread: me)
        #expect(outcome26 == .deliver)
        #expect(state.valueToUpdate == 1)
        let delivers = state.store(updated: 2)
        #expect(delivers)
        let outcome27 = state.update({ $0 += 1 }, thread: me)
        #expect(outcome27 == .done)
        let outcome28 = state.update({ $0 += 1 }, thread: other)
        #expect(outcome28 == .wait)
        #expect(drain(&state) == ["update", "release"])
        _ = state.finish(.finished)
        #expect(state.valueToUpdate == nil)
        let outcome29 = state.update({ $0 += 1 }, thread: me)
        #expect(outcome29 == .done)
    }

    // MARK: The turn and upstream

    @Test func aParkedWaiterIsHandedTheTurn() {
        var state = State(currentValue: nil)
        _ = state.attach(conduit(), thread: me)
        let outcome30 = state.send(1, thread: me, storingAfterCompletion: false)
        #expect(outcome30 == .deliver)
        guard case .parked = state.turn.attempt(by: other, mayPark: true) else {
            Issue.record("the other thread should park")
            return
        }
        let idle = state.releaseIfIdle()
        #expect(!idle)
        #expect(drain(&state) == ["hand over"])
        #expect(state.turn.holder == other)
    }

    @Test func upstreamSubscriptionsAreKeptAndAskedAtOnceOnlyWhenTold() {
        final class Upstream: Subscription {
            func request(_ demand: Subscribers.Demand) {}
            func cancel() {}
        }
        var state = State(currentValue: nil)
        let now = state.add(upstream: Upstream(), requestsAtOnce: true)
        let later = state.add(upstream: Upstream(), requestsAtOnce: false)
        #expect(now && !later)
        #expect(state.upstreamSubscriptions.count == 2)
    }
}
