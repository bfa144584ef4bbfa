@testable import Streams
import Testing

/// The delivery turn and the paced delivery built on it, as plain values: who holds the turn, who is
/// woken or handed it, and what a caller is told to do. Threads are stood for by identities; no
/// thread parks (waiters are only queued, woken and handed the turn).
@Suite struct DeliveryTurnTests {
    let first = ThreadIdentity(rawValue: 1)
    let second = ThreadIdentity(rawValue: 2)
    let third = ThreadIdentity(rawValue: 3)

    @Test func aFreeTurnIsTakenOnceAndGivenBack() {
        var turn = DeliveryTurn()
        #expect(!turn.isHeld)
        let took = turn.takeIfFree(by: first)
        let tookAgain = turn.takeIfFree(by: second)
        #expect(took && !tookAgain)
        #expect(turn.holder == first)
        #expect(turn.release() == nil)
        #expect(!turn.isHeld)
    }

    @Test func enteringTellsTheHolderFromOtherThreads() {
        var turn = DeliveryTurn()
        #expect(turn.enter(by: first) == .taken)
        #expect(turn.enter(by: first) == .nested)
        #expect(turn.enter(by: second) == .busy)
    }

    /// Parks a thread behind a held turn, waiting since `since`.
    func park(_ thread: ThreadIdentity, on turn: inout DeliveryTurn, since: UInt64 = TurnWaiter.now()) -> TurnWaiter? {
        guard case .parked(let waiter) = turn.attempt(by: thread, .park(since: since)) else { return nil }
        return waiter
    }

    @Test func waitersAreWokenOneAtATimeInArrivalOrder() {
        var turn = DeliveryTurn()
        turn.take(by: first)
        guard case .busy = turn.attempt(by: second, .once) else {
            Issue.record("a held turn is busy for a thread that does not park yet")
            return
        }
        guard let secondWaiter = park(second, on: &turn), let thirdWaiter = park(third, on: &turn) else {
            Issue.record("threads that park are queued")
            return
        }
        #expect(turn.hasWaiters)
        #expect(turn.release() === secondWaiter)
        #expect(!turn.isHeld, "a woken thread is not handed the turn: it tries again")
        // A running thread takes the free turn before the woken one is back, and gives it up again:
        // the woken one is still on its way, so nobody more is woken.
        let barged = turn.takeIfFree(by: first)
        #expect(barged)
        #expect(turn.release() == nil)
        guard case .taken = turn.attempt(by: second, .returning(secondWaiter)) else {
            Issue.record("the woken thread takes the free turn")
            return
        }
        #expect(turn.holder == second)
        #expect(turn.release() === thirdWaiter)
        #expect(!turn.hasWaiters)
        guard case .taken = turn.attempt(by: third, .returning(thirdWaiter)) else {
            Issue.record("the last waiter takes the free turn")
            return
        }
        #expect(turn.release() == nil)
        #expect(!turn.isHeld)
    }

    @Test func aWokenThreadThatFindsTheTurnTakenParksAgainFirstInLine() {
        var turn = DeliveryTurn()
        turn.take(by: first)
        guard let secondWaiter = park(second, on: &turn), let thirdWaiter = park(third, on: &turn) else {
            Issue.record("threads that park are queued")
            return
        }
        #expect(turn.release() === secondWaiter)
        let barged = turn.takeIfFree(by: first)
        #expect(barged)
        guard case .parked(let again) = turn.attempt(by: second, .returning(secondWaiter)) else {
            Issue.record("the woken thread parks again behind the running one")
            return
        }
        #expect(again === secondWaiter)
        #expect(turn.release() === secondWaiter, "it kept its place ahead of the third")
        #expect(turn.firstWaiter === thirdWaiter)
    }

    @Test func aThreadThatWaitedLongerThanThePatienceIsHandedTheTurn() {
        var turn = DeliveryTurn()
        turn.take(by: first)
        let longAgo = TurnWaiter.now() - DeliveryTurn.patience - 1
        guard let waiter = park(second, on: &turn, since: longAgo) else {
            Issue.record("the thread parks")
            return
        }
        #expect(turn.release() === waiter)
        #expect(turn.holder == second, "handed over: no running thread can take it first")
        let barged = turn.takeIfFree(by: first)
        #expect(!barged)
        guard case .taken = turn.attempt(by: second, .returning(waiter)) else {
            Issue.record("the thread finds the turn handed to it")
            return
        }
        #expect(turn.holder == second)
    }

    @Test func pacedDeliveryTellsEachCallerWhatToDo() {
        var delivery = PacedDelivery<Int>()
        #expect(delivery.enqueue(1, thread: first) == .drain)
        // Queued from inside the delivery: the draining thread delivers it next.
        #expect(delivery.enqueue(2, thread: first) == .none)
        var waiter: TurnWaiter?
        #expect(delivery.next(handingOverTo: &waiter) == 1)
        #expect(delivery.next(handingOverTo: &waiter) == 2)
        #expect(delivery.next(handingOverTo: &waiter) == nil)
        #expect(waiter == nil)
        #expect(!delivery.turn.isHeld)
    }

    @Test func pacedDeliveryTellsAnotherThreadToWaitAndHandsItTheTurn() {
        var delivery = PacedDelivery<Int>()
        delivery.turn.take(by: first)
        #expect(delivery.enqueue(1, thread: second) == .waitThenDrain)
        guard case .parked(let parked) = delivery.turn.attempt(by: second, .park(since: TurnWaiter.now())) else {
            Issue.record("the caller queues for the turn")
            return
        }
        // The holder drains what is queued, then gives the turn up and wakes the waiter.
        var waiter: TurnWaiter?
        #expect(delivery.next(handingOverTo: &waiter) == 1)
        #expect(delivery.next(handingOverTo: &waiter) == nil)
        #expect(waiter === parked)
        #expect(!delivery.turn.isHeld)
    }

    @Test func discardingDropsWhatWaits() {
        var delivery = PacedDelivery<Int>()
        _ = delivery.enqueue(1, thread: first)
        _ = delivery.enqueue(2, thread: second)
        delivery.discard()
        var waiter: TurnWaiter?
        #expect(delivery.next(handingOverTo: &waiter) == nil)
    }
}
