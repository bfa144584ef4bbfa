import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct DeduplicatedTests {
    final class AppState: ObservableObject {
        @Published var value = 0
        @Published var unrelated = 0
    }

    struct Snapshot: Equatable {
        let value: Int
    }

    @Test func forwardsOnlyWhenTheSnapshotChangesAfterTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let state = AppState()
        let deduplicated = state.deduplicated(on: scheduler) { Snapshot(value: $0.value) }
        var forwarded = 0
        let cancellable = deduplicated.objectWillChange.sink { forwarded += 1 }
        scheduler.advance()
        #expect(forwarded == 0)
        state.unrelated += 1
        scheduler.advance()
        #expect(forwarded == 0)
        state.value = 1
        #expect(forwarded == 0)
        scheduler.advance()
        #expect(forwarded == 1)
        #expect(deduplicated.snapshot == Snapshot(value: 1))
        _ = cancellable
    }

    @Test func writesInOneTurnCoalesce() {
        let scheduler = DispatchQueue.test
        let state = AppState()
        let deduplicated = state.deduplicated(on: scheduler) { Snapshot(value: $0.value) }
        var forwarded = 0
        let cancellable = deduplicated.objectWillChange.sink { forwarded += 1 }
        state.value = 1
        state.value = 2
        state.unrelated = 9
        state.value = 3
        scheduler.advance()
        #expect(forwarded == 1)
        state.value = 4
        state.value = 3
        scheduler.advance()
        #expect(forwarded == 1)
        _ = cancellable
    }

    @Test func synchronousModeNeedsNoScheduler() {
        let state = AppState()
        let deduplicated = state.deduplicatedSynchronously { Snapshot(value: $0.value) }
        var seen: [Int] = []
        let cancellable = deduplicated.objectWillChange.sink { seen.append(state.value) }
        state.unrelated = 1
        state.value = 1
        state.value = 1
        state.value = 2
        #expect(seen == [1, 2])
        _ = cancellable
    }

    @Test func dynamicMemberReadsAndWritesGoThrough() {
        let state = AppState()
        let deduplicated = state.deduplicatedSynchronously { Snapshot(value: $0.value) }
        deduplicated.value = 7
        #expect(state.value == 7)
        #expect(deduplicated.value == 7)
        #expect(deduplicated.unrelated == 0)
    }

    @Test func nothingFiresAtCreationAndTheWrapperIsReleased() {
        let scheduler = DispatchQueue.test
        let state = AppState()
        weak var weakWrapper: Deduplicated<AppState, Snapshot>?
        var forwarded = 0
        do {
            let deduplicated = state.deduplicated(on: scheduler) { Snapshot(value: $0.value) }
            weakWrapper = deduplicated
            let cancellable = deduplicated.objectWillChange.sink { forwarded += 1 }
            scheduler.advance()
            cancellable.cancel()
        }
        #expect(forwarded == 0)
        #expect(weakWrapper == nil)
        state.value = 3
        scheduler.advance()
        #expect(forwarded == 0)
    }
}
