@testable import Streams
import Testing

/// The delivery turn and the paced delivery built on it, as plain values: who holds the turn, who it
/// is handed to, and what a caller is told to do. Threads are stood for by identities; no thread
/// parks (waiters are only queued and handed the turn).
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

    @Test func waitersAreHandedTheTurnInArrivalOrder() {
        var turn = DeliveryTurn()
        turn.take(by: first)
        guard case .busy = turn.attempt(by: second, mayPark: false) else {
            Issue.record("a held turn is busy for a thread that may not park yet")
            return
        }
        guard case .parked(let secondWaiter) = turn.attempt(by: second, mayPark: true),
            case .parked(let thirdWaiter) = turn.attempt(by: third, mayPark: true)
        else {
            Issue.record("threads that may park are queued")
            return
        }
        #expect(turn.hasWaiters)
        #expect(turn.release() === secondWaiter)
        #expect(turn.holder == second)
        #expect(turn.release() === thirdWaiter)
        #expect(turn.holder == third)
        #expect(!turn.hasWaiters)
        #expect(turn.release() == nil)
        guard case .taken = turn.attempt(by: first, mayPark: true) else {
            Issue.record("a free turn is taken at once")
            return
        }
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
        guard case .parked(let parked) = delivery.turn.attempt(by: second, mayPark: true) else {
            Issue.record("the caller queues for the turn")
            return
        }
        // The holder drains what is queued, then hands the turn over.
        var waiter: TurnWaiter?
        #expect(delivery.next(handingOverTo: &waiter) == 1)
        #expect(delivery.next(handingOverTo: &waiter) == nil)
        #expect(waiter === parked)
        #expect(delivery.turn.holder == second)
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
