import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct StoreTests {
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

/// A store observed by slices through `ObservedPublisher`, as the documentation shows it.
@Suite struct StoreReadmeExampleTests {
    struct AppState {
        var title = "Inbox"
        var unread = 0
    }

    @Test func observingAStoreBySlices() {
        let store = Store(AppState())
        let title = ObservedPublisher(publisher: store.slice(\.title), initial: "")
        store.update { $0.unread += 1 }
        store.update { $0.title = "Sent" }
        #expect(title.wrappedValue == "Sent")
    }
}

/// Updates from several threads at once.
@Suite struct StoreConcurrentUpdateTests {
    struct Counter {
        var count = 0
    }

    @Test func concurrentUpdatesAreNeverLost() {
        let store = Store(Counter())
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5_000 { store.update { $0.count += 1 } }
        }
        #expect(store.state.count == 20_000)
    }

    @Test func updateFromInsideASubscriberIsAppliedAfterTheCurrentOne() {
        let store = Store(Counter())
        var seen: [Int] = []
        let cancellable = store.slice(\.count).sink { count in
            seen.append(count)
            if count == 1 { store.update { $0.count += 10 } }
        }
        store.update { $0.count += 1 }
        #expect(seen == [0, 1, 11])
        #expect(store.state.count == 11)
        _ = cancellable
    }

    struct Profile: Equatable {
        var name = "Ada"
        var tags: [String] = []
    }

    struct Account {
        var id = 1
        var profile = Profile()
        var note = "none"
        var shoutedName: String { profile.name.uppercased() }
    }

    final class Settings {
        var theme = "light"
    }

    @Test func slicesOfNestedComputedAndStringPartsPublishTheirChanges() {
        let store = Store(Account())
        var names: [String] = []
        var tags: [[String]] = []
        var shouted: [String] = []
        var notes: [String] = []
        let cancellables = [
            store.slice(\.profile.name).sink { names.append($0) },
            store.slice(\.profile.tags).sink { tags.append($0) },
            store.slice(\.shoutedName).sink { shouted.append($0) },
            store.slice(\.note).sink { notes.append($0) },
        ]
        store.update { $0.profile.name = "Grace" }
        store.update { $0.profile.tags.append("admiral") }
        store.update { $0.id = 2 }
        store.update { $0.note = String(repeating: "long note ", count: 20) }
        store.update { $0.profile.name = "Grace" }
        #expect(names == ["Ada", "Grace"])
        #expect(tags == [[], ["admiral"]])
        #expect(shouted == ["ADA", "GRACE"])
        #expect(notes == ["none", String(repeating: "long note ", count: 20)])
        _ = cancellables
    }

    @Test func aSliceThroughAClassReadsTheObjectEachUpdate() {
        let settings = Settings()
        let store = Store((count: 0, settings: settings))
        var themes: [String] = []
        let cancellable = store.slice(\.settings.theme).sink { themes.append($0) }
        settings.theme = "dark"
        store.update { $0.count += 1 }
        store.update { $0.count += 1 }
        #expect(themes == ["light", "dark"])
        _ = cancellable
    }

    @Test func updatesFromInsideASubscriberStartFromTheLatestStateAndArriveInOrder() {
        let store = Store(Counter())
        var seen: [Int] = []
        var stateAfterNestedUpdates: Int?
        let cancellable = store.slice(\.count).sink { count in
            seen.append(count)
            guard count == 1 else { return }
            store.update { $0.count += 10 }
            store.subject.send(Counter(count: 50))
            store.update { $0.count += 100 }
            stateAfterNestedUpdates = store.state.count
        }
        store.update { $0.count += 1 }
        #expect(stateAfterNestedUpdates == 150, "each nested update is applied at once, to the latest state")
        #expect(seen == [0, 1, 11, 50, 150], "and published after the current state, in order")
        _ = cancellable
    }
}

/// Where a slice subscriber starts while the store is publishing an update.
@Suite(.timeLimit(.minutes(3))) struct StoreSliceStartTests {
    struct Counters: Equatable {
        var first = 0
        var second = 0
    }

    @Test func aSliceSubscribedFromInsideAPublicationStartsFromTheStateBeingPublished() {
        let store = Store(Counters())
        let late = TestSubscriber<Int, Never>()
        let trigger = store.slice(\.first)
        // Made after `trigger`, so it takes each new state after it.
        let second = store.slice(\.second)
        let cancellable = trigger.sink { value in
            if value == 1 { second.subscribe(late) }
        }
        store.update {
            $0.first = 1
            $0.second = 5
        }
        #expect(late.values == [5])
        store.update { $0.second = 6 }
        #expect(late.values == [5, 6])
        cancellable.cancel()
    }

    @Test func aSliceSubscribedFromAnotherThreadDuringUpdatesStartsFromTheCurrentState() {
        let store = Store(Counters())
        let updates = 2_000
        // Slices are updated in the order they were made: the last is where a subscriber could
        // start behind.
        _ = store.slice(\.first)
        _ = store.slice(\.second)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for _ in 0..<updates { store.update { $0.second += 1 } }
                return
            }
            while store.second < updates {
                let current = store.second
                let subscriber = TestSubscriber<Int, Never>()
                store.slice(\.second).subscribe(subscriber)
                let values = subscriber.values
                subscriber.cancel()
                #expect((values.first ?? -1) >= current)
                #expect(values == values.sorted())
            }
        }
    }
}
