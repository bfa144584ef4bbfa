@testable import Streams
import Testing

/// A subject's state machine on its own, single-threaded: who delivers, what is queued behind a
/// delivery, where subscribers arriving or leaving go, and what a completion leaves behind. Two
/// threads are stood for by two identities; the conduits are real, but nothing is delivered to them.
@Suite struct SubjectStateTests {
    typealias State = SubjectState<Int, Failure>

    struct Failure: Error, Equatable {}

    static let me = ThreadIdentity(rawValue: 1)
    static let other = ThreadIdentity(rawValue: 2)

    var me: ThreadIdentity { Self.me }
    var other: ThreadIdentity { Self.other }

    /// The broadcaster the conduits belong to; the tests drive a state of their own instead of its.
    let broadcaster = SubjectBroadcaster<Int, Failure>()

    func conduit() -> SubjectConduit<Int, Failure> {
        SubjectSinkConduit(
            broadcaster: broadcaster, subject: nil,
            sink: Subscribers.Sink<Int, Failure>(receiveCompletion: { _ in }, receiveValue: { _ in }))
    }

    /// The state with the subscriber list beside it, changed as the state says, as the broadcaster
    /// does; nothing is delivered.
    struct Subject {
        var state: State
        var list = SubjectSubscriberList<Int, Failure>()

        init(currentValue: UnsafeMutablePointer<Int>? = nil) {
            state = State(currentValue: currentValue)
        }

        mutating func attach(_ conduit: SubjectConduit<Int, Failure>, by thread: ThreadIdentity = me)
            -> State.Attachment
        {
            let attachment = state.attach(conduit, thread: thread)
            if case .now = attachment { list.append(conduit) }
            return attachment
        }

        mutating func remove(_ conduit: SubjectConduit<Int, Failure>) -> State.Removal {
            let removal = state.remove(conduit)
            if case .now = removal { list.remove(conduit) }
            return removal
        }

        mutating func send(_ value: Int, by thread: ThreadIdentity = me, storingAfterCompletion: Bool = false)
            -> SubjectSendOutcome
        {
            state.send(value, thread: thread, storingAfterCompletion: storingAfterCompletion, subscribers: list)
        }

        mutating func sendAfterWaiting(_ value: Int) -> Bool {
            state.sendAfterWaiting(value, storingAfterCompletion: false, subscribers: list)
        }

        /// Finishes, as the holder of the turn; returns how many subscribers are completed.
        mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Int? {
            guard state.finish(completion) else { return nil }
            admitArrivals()
            defer { list = SubjectSubscriberList() }
            return list.count
        }

        mutating func admitArrivals() {
            state.takeArrivals()?.forEach { list.append($0) }
        }

        /// What the holder does until it gives the turn up, written as short words.
        mutating func drain() -> [String] {
            var steps: [String] = []
            while true {
                if state.nextWorkAdmitsArrivals { admitArrivals() }
                switch state.next(subscribers: list) {
                case .handOver(let waiter):
                    steps.append(waiter == nil ? "release" : "hand over")
                    return steps
                case .work(.value(let value), _): steps.append("value \(value)")
                case .work(.completion(.finished), _): steps.append("finished")
                case .work(.completion(.failure), _): steps.append("failure")
                case .work(.currentValue, let current): steps.append("current \(current.map(String.init) ?? "none")")
                case .work(.attach(let conduit), _):
                    list.append(conduit)
                    steps.append("attach")
                case .work(.detach(let conduit), _):
                    let removed = list.remove(conduit)
                    steps.append(removed ? "detach" : "detach missing")
                }
            }
        }
    }

    func pointer(to value: Int) -> UnsafeMutablePointer<Int> {
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        storage.initialize(to: value)
        return storage
    }

    // MARK: Sending

    @Test func aValueWithNobodySubscribedIsDroppedWithoutTakingTheTurn() {
        var subject = Subject()
        let outcome = subject.send(1)
        #expect(outcome == .done)
        #expect(!subject.state.turn.isHeld)
    }

    @Test func aValueWithSubscribersTakesTheTurnForTheSender() {
        var subject = Subject()
        let attachment = subject.attach(conduit())
        guard case .now = attachment else {
            Issue.record("with the turn free, a subscriber joins the list at once")
            return
        }
        let outcome = subject.send(1)
        #expect(outcome == .deliver)
        #expect(subject.state.turn.holder == me)
        let released = subject.state.releaseIfIdle()
        #expect(released)
        #expect(!subject.state.turn.isHeld)
    }

    @Test func valuesSentByTheHolderQueueInOrderAndOtherThreadsWait() {
        var subject = Subject()
        _ = subject.attach(conduit())
        let first = subject.send(1)
        let second = subject.send(2)
        let third = subject.send(3)
        let fromElsewhere = subject.send(4, by: other)
        #expect([first, second, third, fromElsewhere] == [.deliver, .done, .done, .wait])
        let idle = subject.state.releaseIfIdle()
        #expect(!idle)
        #expect(subject.drain() == ["value 2", "value 3", "release"])
        #expect(!subject.state.turn.isHeld)
        #expect(subject.state.pending.isEmpty)
        #expect(subject.state.pendingStart == 0 && subject.state.pendingEnd == 0)
    }

    @Test func theCurrentValueIsStoredAsSentAndAfterCompletionOnlyWhenAsked() {
        let storage = pointer(to: 0)
        defer { storage.deallocate() }
        var subject = Subject(currentValue: storage)
        _ = subject.send(1)
        #expect(storage.pointee == 1, "stored even with nobody to deliver to")
        _ = subject.attach(conduit())
        _ = subject.send(2)
        _ = subject.send(3)
        #expect(storage.pointee == 3, "a value queued behind a delivery is stored at once")
        let waits = subject.send(4, by: other)
        #expect(waits == .wait)
        #expect(storage.pointee == 3, "a waiting sender stores its value once it holds the turn")
        _ = subject.drain()
        let delivers = subject.sendAfterWaiting(4)
        #expect(delivers)
        #expect(storage.pointee == 4)
        _ = subject.finish(.finished)
        _ = subject.send(5)
        #expect(storage.pointee == 4)
        _ = subject.send(6, storingAfterCompletion: true)
        #expect(storage.pointee == 6)
    }

    // MARK: Completion

    @Test func aCompletionTakesTheSubscribersOnceAndLaterOnesAreIgnored() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.attach(conduit())
        let outcome = subject.state.send(completion: .failure(Failure()), thread: me)
        #expect(outcome == .deliver)
        let completed = subject.finish(.failure(Failure()))
        #expect(completed == 2)
        #expect(subject.list.isEmpty)
        #expect(subject.state.completion == .failure(Failure()))
        let again = subject.finish(.finished)
        #expect(again == nil)
        let late = subject.state.send(completion: .finished, thread: me)
        #expect(late == .done)
        #expect(subject.state.completion == .failure(Failure()))
    }

    @Test func aCompletionSentInsideADeliveryIsRecordedAtOnceAndDeliveredAfterIt() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.send(1)
        let outcome = subject.state.send(completion: .finished, thread: me)
        #expect(outcome == .done)
        #expect(subject.state.isFinished)
        let late = subject.send(2)
        #expect(late == .done)
        #expect(subject.drain() == ["finished", "release"])
    }

    @Test func aSubscriberArrivingAfterCompletionGetsTheCompletion() {
        var subject = Subject()
        _ = subject.finish(.finished)
        let attachment = subject.attach(conduit())
        guard case .finished(.finished) = attachment else {
            Issue.record("a subscriber arriving after completion gets the completion, not \(attachment)")
            return
        }
        #expect(subject.list.isEmpty && subject.state.arrivals.isEmpty)
    }

    // MARK: Subscribers arriving and leaving

    @Test func subscribersArrivingWhileAnotherThreadDeliversWaitUntilBetweenDeliveries() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.send(1)
        let attachment = subject.attach(conduit(), by: other)
        guard case .later = attachment else {
            Issue.record("a subscriber from another thread waits while the turn is held")
            return
        }
        #expect(subject.list.count == 1)
        #expect(subject.state.arrivals.count == 1)
        let idle = subject.state.releaseIfIdle()
        #expect(!idle, "the holder admits arrivals before giving the turn up")
        #expect(subject.drain() == ["release"])
        #expect(subject.list.count == 2)
        #expect(subject.state.arrivals.isEmpty)
    }

    @Test func aSubscriberAttachingInsideADeliveryIsQueuedBehindIt() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.send(1)
        _ = subject.attach(conduit())
        _ = subject.send(2)
        #expect(subject.list.count == 1)
        #expect(subject.drain() == ["attach", "value 2", "release"])
        #expect(subject.list.count == 2)
    }

    @Test func cancellingWhileFreeRemovesAtOnceAndWhileDeliveringQueuesTheRemoval() {
        var subject = Subject()
        let first = conduit()
        let second = conduit()
        _ = subject.attach(first)
        _ = subject.attach(second)
        let whileFree = subject.remove(first)
        guard case .now = whileFree else {
            Issue.record("with the turn free, a cancelled subscriber leaves at once")
            return
        }
        #expect(subject.list.count == 1)
        _ = subject.send(1)
        let whileDelivering = subject.remove(second)
        guard case .later = whileDelivering else {
            Issue.record("while delivering, a cancelled subscriber leaves when the holder gets to it")
            return
        }
        #expect(subject.list.count == 1, "the list the holder walks does not change under it")
        #expect(subject.drain() == ["detach", "release"])
        #expect(subject.list.isEmpty)
    }

    @Test func cancellingAnArrivalForgetsItAtOnceEvenWhileDelivering() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.send(1)
        let arrival = conduit()
        _ = subject.attach(arrival, by: other)
        let removal = subject.remove(arrival)
        guard case .fromArrivals = removal else {
            Issue.record("an arrival that cancels is forgotten at once")
            return
        }
        #expect(subject.state.arrivals.isEmpty)
        let idle = subject.state.releaseIfIdle()
        #expect(idle)
    }

    // MARK: Current value and updates

    @Test func theCurrentValueGoesOnlyToASubscriberStillAttached() {
        let storage = pointer(to: 7)
        defer { storage.deallocate() }
        var subject = Subject(currentValue: storage)
        let attached = conduit()
        let gone = conduit()
        _ = subject.attach(attached)
        let outcome = subject.state.claimTurn(by: me, orQueue: .currentValue(attached))
        #expect(outcome == .deliver)
        subject.state.enqueue(.currentValue(attached))
        subject.state.enqueue(.currentValue(gone))
        #expect(subject.drain() == ["current 7", "current none", "release"])
    }

    @Test func anUpdateTakesTheTurnWaitsForItOrIsAppliedInsideTheDelivery() {
        let storage = pointer(to: 1)
        defer { storage.deallocate() }
        var subject = Subject(currentValue: storage)
        _ = subject.attach(conduit())
        let first = subject.state.beginUpdate(thread: me)
        #expect(first == .deliver)
        #expect(subject.state.valueToUpdate == 1)
        subject.state.store(updated: 2)
        #expect(storage.pointee == 2)
        let nested = subject.state.beginUpdate(thread: me)
        let fromElsewhere = subject.state.beginUpdate(thread: other)
        #expect([nested, fromElsewhere] == [.reentrant, .wait])
        #expect(subject.state.valueToUpdate == 2, "a nested update starts from the latest value")
        #expect(subject.drain() == ["release"])
        _ = subject.finish(.finished)
        #expect(subject.state.valueToUpdate == nil)
        let late = subject.state.beginUpdate(thread: me)
        #expect(late == .done)
    }

    @Test func aSubscriberThatJoinsAndLeavesWhileTheHolderLetsGoOfOthersNeverReachesTheList() {
        var subject = Subject()
        let leaving = conduit()
        _ = subject.attach(leaving)
        #expect(subject.send(1) == .deliver)
        // During the delivery, another thread cancels a subscriber in the list and subscribes anew.
        guard case .later = subject.remove(leaving), case .later = subject.attach(conduit(), by: other) else {
            Issue.record("while the turn is held, a cancel is queued and a subscriber waits to join")
            return
        }
        // The holder lets go of the cancelled subscriber without adding the newcomer first ...
        #expect(!subject.state.nextWorkAdmitsArrivals)
        guard case .work(.detach(let detached), _) = subject.state.next(subscribers: subject.list) else {
            Issue.record("the holder's next work is the cancellation")
            return
        }
        #expect(detached === leaving)
        subject.list.remove(detached)
        // ... so the newcomer's own cancel takes it out of the arrivals at once: nothing more is queued
        // for the holder, however often other threads subscribe and cancel meanwhile.
        let newcomer = subject.state.arrivals
        var arrived: SubjectConduit<Int, Failure>?
        newcomer.forEach { arrived = $0 }
        guard let arrived, case .fromArrivals = subject.remove(arrived) else {
            Issue.record("the newcomer leaves the arrivals")
            return
        }
        #expect(subject.state.nextWorkAdmitsArrivals, "before giving the turn up, the holder admits the arrivals")
        #expect(subject.drain() == ["release"])
        #expect(subject.list.isEmpty)
    }

    // MARK: The turn and upstream

    @Test func aParkedWaiterIsWokenWhenTheTurnIsGivenUp() {
        var subject = Subject()
        _ = subject.attach(conduit())
        _ = subject.send(1)
        guard case .parked(let waiter) = subject.state.turn.attempt(by: other, .park(since: TurnWaiter.now())) else {
            Issue.record("the other thread should park")
            return
        }
        let idle = subject.state.releaseIfIdle()
        #expect(!idle)
        #expect(subject.drain() == ["hand over"])
        #expect(!subject.state.turn.isHeld, "the woken thread tries again; the turn is free meanwhile")
        guard case .taken = subject.state.turn.attempt(by: other, .returning(waiter)) else {
            Issue.record("the woken thread takes the free turn")
            return
        }
        #expect(subject.state.turn.holder == other)
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
