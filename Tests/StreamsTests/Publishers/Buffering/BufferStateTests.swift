@testable import Streams
import Testing

/// Buffer's state machine on its own, single-threaded: every decision it returns, without a lock, a
/// thread or a subscriber. Two threads are stood for by two identities.
@Suite struct BufferStateTests {
    struct BufferFailure: Error, Equatable {}

    typealias State = BufferState<Int, BufferFailure>

    /// An upstream subscription that the tests tell apart from the others.
    final class Stub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    let me = ThreadIdentity(rawValue: 1)
    let other = ThreadIdentity(rawValue: 2)

    func subscribed(size: Int = 2, whenFull: Publishers.BufferingStrategy<BufferFailure> = .dropNewest) -> State {
        var state = State(size: size, whenFull: whenFull)
        let accepted = state.status.accept(Stub())
        #expect(accepted)
        return state
    }

    /// The steps a drain takes until it stops, as text.
    func drained(_ state: inout State) -> [String] {
        var steps: [String] = []
        while true {
            switch state.next(releasing: true).0 {
            case .deliver(let batch): steps.append("\(batch)")
            case .complete(.finished): return steps + ["finished"]
            case .complete(.failure): return steps + ["failure"]
            case .stop: return steps
            }
        }
    }

    @Test func elementsBeyondTheSizeAreDroppedNewestOrOldest() {
        var newest = subscribed(whenFull: .dropNewest)
        for value in 1...3 { _ = newest.arrive(value) }
        #expect(Array(newest.values) == [1, 2])
        var oldest = subscribed(whenFull: .dropOldest)
        for value in 1...3 { _ = oldest.arrive(value) }
        #expect(Array(oldest.values) == [2, 3])
    }

    @Test func aFullBufferAsksForTheCustomErrorWhichEndsTheStreamFirst() {
        var state = subscribed(whenFull: .customError { BufferFailure() })
        _ = state.arrive(1)
        _ = state.arrive(2)
        guard case .makeError = state.arrive(3) else {
            Issue.record("a full buffer asks for the custom error")
            return
        }
        #expect(state.makingError)
        state.madeError(BufferFailure())
        guard case .ignore = state.arrive(4) else {
            Issue.record("after the failure, elements are ignored")
            return
        }
        // No demand: the failure goes at once, before the buffered elements.
        #expect(drained(&state) == ["failure"])
    }

    @Test func batchesFollowDemandAndTheCompletionFollowsThemWithDemand() {
        var state = subscribed(size: 5)
        for value in 1...4 { _ = state.arrive(value) }
        let completed = state.complete(.finished)
        #expect(completed)
        let again = state.complete(.finished)
        #expect(!again)
        #expect(state.request(.max(3), thread: me) != nil)
        #expect(state.request(.max(1), thread: other) == nil)
        #expect(drained(&state) == ["[1, 2, 3, 4]"])
        // As in Combine, the normal completion waits for demand, even with nothing left to send.
        state.add(.max(1))
        #expect(drained(&state) == ["finished"])
    }

    @Test func cancelHandsBackWhatWasBuffered() {
        var state = subscribed()
        _ = state.arrive(1)
        let cancelled = state.cancel()
        #expect(cancelled.subscription != nil)
        #expect(cancelled.dropped.count == 1)
        #expect(state.cancel().subscription == nil)
    }
}
