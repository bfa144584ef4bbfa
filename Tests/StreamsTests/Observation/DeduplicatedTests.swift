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

    @Test func theDefaultForwardsEachChangeOfTheSnapshotAtOnceWithoutAScheduler() {
        let state = AppState()
        let deduplicated = state.deduplicated { Snapshot(value: $0.value) }
        var seen: [Snapshot] = []
        let cancellable = deduplicated.objectWillChange.sink { seen.append(deduplicated.snapshot) }
        #expect(seen.isEmpty)
        state.value = 1
        #expect(seen == [Snapshot(value: 1)])
        state.value = 2
        #expect(seen == [Snapshot(value: 1), Snapshot(value: 2)])
        _ = cancellable
    }

    @Test func theDefaultForwardsNothingWhenTheSnapshotIsEqual() {
        let state = AppState()
        let deduplicated = state.deduplicated { Snapshot(value: $0.value) }
        var forwarded = 0
        let cancellable = deduplicated.objectWillChange.sink { forwarded += 1 }
        state.unrelated = 1
        state.unrelated = 2
        #expect(forwarded == 0)
        state.value = 0
        #expect(forwarded == 0)
        state.value = 3
        state.value = 3
        #expect(forwarded == 1)
        #expect(deduplicated.snapshot == Snapshot(value: 3))
        _ = cancellable
    }

    @Test func theTypesInitializerComparesSynchronouslyToo() {
        let state = AppState()
        let deduplicated = Deduplicated(state) { Snapshot(value: $0.value) }
        var seen: [Int] = []
        let cancellable = deduplicated.objectWillChange.sink { seen.append(state.value) }
        state.unrelated = 1
        state.value = 4
        state.value = 4
        state.value = 5
        #expect(seen == [4, 5])
        _ = cancellable
    }

    @Test func theOldSynchronousSpellingsStillWork() {
        let state = AppState()
        let byMethod = state.deduplicatedSynchronously { Snapshot(value: $0.value) }
        let byInitializer = Deduplicated(synchronouslyWrapping: state) { Snapshot(value: $0.value) }
        var seen: [String] = []
        let cancellables = [
            byMethod.objectWillChange.sink { seen.append("method \(state.value)") },
            byInitializer.objectWillChange.sink { seen.append("initializer \(state.value)") },
        ]
        state.unrelated = 1
        state.value = 1
        state.value = 1
        #expect(seen.sorted() == ["initializer 1", "method 1"])
        _ = cancellables
    }

    @Test func dynamicMemberReadsAndWritesGoThrough() {
        let state = AppState()
        let deduplicated = state.deduplicated { Snapshot(value: $0.value) }
        deduplicated.value = 7
        #expect(state.value == 7)
        #expect(deduplicated.value == 7)
        #expect(deduplicated.unrelated == 0)
    }

    @Test(arguments: [false, true])
    func aChangeWhileTheWrapperIsMadeIsNotLost(onAScheduler: Bool) {
        // The first snapshot is taken before the wrapper listens; a write that lands in between (made
        // here by the snapshot itself, the first time) is seen once it listens, without a
        // notification, and the next change is compared with it.
        let state = AppState()
        let scheduler = DispatchQueue.test
        var first = true
        let snapshot = { (state: AppState) -> Int in
            let value = state.value
            if first {
                first = false
                state.value = 5
            }
            return value
        }
        let wrapper =
            onAScheduler ? state.deduplicated(on: scheduler, snapshot) : state.deduplicated(snapshot)
        var fired = 0
        let cancellable = wrapper.objectWillChange.sink { fired += 1 }
        #expect(wrapper.snapshot == 5)
        state.value = 5
        scheduler.advance()
        #expect(fired == 0)
        state.value = 6
        scheduler.advance()
        #expect(fired == 1)
        #expect(wrapper.snapshot == 6)
        cancellable.cancel()
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
