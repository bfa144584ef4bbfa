@testable import Streams
import Testing

/// subscribe(on:)'s state on its own: calls to upstream are made by one caller at a time, in order.
@Suite struct SubscribeOnStateTests {
    /// An upstream subscription that the tests tell apart from the others.
    final class Stub: Subscription {
        func request(_ demand: Subscribers.Demand) {}

        func cancel() {}
    }

    func describe(_ calls: ContiguousArray<SubscribeOnState.UpstreamCall>) -> [String] {
        calls.map { call in
            switch call {
            case .request(_, let demand): "request \(demand)"
            case .cancel: "cancel"
            }
        }
    }

    @Test func oneCallerMakesTheCallsInOrderIncludingThoseQueuedMeanwhile() {
        var state = SubscribeOnState()
        let upstream = Stub()
        let accepted = state.status.accept(upstream)
        #expect(accepted)
        let first = state.enqueue(.request(upstream, .max(1)))
        // A call due while the first caller is busy is left to it.
        let second = state.enqueue(.request(upstream, .max(2)))
        #expect(first && !second)
        var batch = ContiguousArray<SubscribeOnState.UpstreamCall>()
        let tookFirst = state.takeCalls(into: &batch)
        #expect(tookFirst)
        #expect(describe(batch) == ["request max(1)", "request max(2)"])
        batch.removeAll()
        _ = state.enqueue(.cancel(upstream))
        let tookSecond = state.takeCalls(into: &batch)
        #expect(tookSecond)
        #expect(describe(batch) == ["cancel"])
        batch.removeAll()
        let tookMore = state.takeCalls(into: &batch)
        #expect(!tookMore)
        #expect(!state.calling)
    }

    @Test func cancelEndsTheSubscriptionOnce() {
        var state = SubscribeOnState()
        let upstream = Stub()
        _ = state.status.accept(upstream)
        let cancelled = state.cancel()
        #expect(cancelled.map { ($0 as AnyObject) === upstream } == true)
        #expect(state.cancel() == nil)
        #expect(!state.status.isSubscribed)
    }
}
