import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct StoreTests {
    struct AppState: Equatable {
        var fields = [Int](repeating: 0, count: 8)
        var title = ""
    }

    @Test func sliceReplaysThenPublishesOnlyChanges() {
        let store = Store(AppState())
        let recorder = TestSubscriber<String, Never>()
        store.slice(\.title).subscribe(recorder)
        store.update { $0.fields[0] += 1 }
        store.update { $0.title = "a" }
        store.update { $0.title = "a" }
        store.update { $0.title = "b" }
        #expect(recorder.values == ["", "a", "b"])
        #expect(store.title == "b")
    }

    @Test func slicesOfTheSameKeyPathShareOneComparison() {
        let store = Store(AppState())
        let subscribers = (0..<100).map { _ in TestSubscriber<String, Never>() }
        for subscriber in subscribers { store.slice(\.title).subscribe(subscriber) }
        store.slice(\.fields).subscribe(TestSubscriber<[Int], Never>())
        #expect(store.sliceCount == 2)
    }

    @Test func agreesWithPlainChainsOnRandomUpdates() {
        var generator = SystemRandomNumberGenerator()
        let store = Store(AppState())
        var sliceLogs = [[Int]](repeating: [], count: 8)
        var chainLogs = [[Int]](repeating: [], count: 8)
        var cancellables = Set<AnyCancellable>()
        for field in 0..<8 {
            store.slice(\.fields[field]).sink { sliceLogs[field].append($0) }.store(in: &cancellables)
            store.subject.map { $0.fields[field] }.removeDuplicates().sink { chainLogs[field].append($0) }
                .store(in: &cancellables)
        }
        for _ in 0..<500 {
            let field = Int.random(in: 0..<8, using: &generator)
            let delta = Int.random(in: -1...1, using: &generator)
            store.update { $0.fields[field] += delta }
        }
        #expect(sliceLogs == chainLogs)
        #expect(sliceLogs.allSatisfy { !$0.isEmpty })
    }

    @Test func sendingToTheSubjectDirectlyReachesSlices() {
        let store = Store(AppState())
        let recorder = TestSubscriber<Int, Never>()
        store.slice(\.fields[3]).subscribe(recorder)
        var state = store.state
        state.fields[3] = 9
        store.subject.send(state)
        #expect(recorder.values == [0, 9])
    }

    @Test func concurrentUpdatesAndSubscriptions() {
        let store = Store(AppState())
        let recorder = TestSubscriber<Int, Never>()
        store.slice(\.fields[0]).subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<200 {
                if worker == 0 {
                    store.update { $0.fields[0] += 1 }
                } else {
                    let subscriber = TestSubscriber<Int, Never>()
                    store.slice(\.fields[worker]).subscribe(subscriber)
                    subscriber.cancel()
                }
            }
        }
        #expect(recorder.values == Array(0...200))
    }

    @Test func storeIsReleased() {
        weak var weakStore: Store<AppState>?
        let recorder = TestSubscriber<String, Never>()
        do {
            let store = Store(AppState())
            weakStore = store
            store.slice(\.title).subscribe(recorder)
        }
        #expect(weakStore == nil)
    }
}
