import Dispatch
import Streams
import StreamsTesting
import Testing

/// Wrappers attached while several threads write.
@Suite(.timeLimit(.minutes(3))) struct ObservationConcurrencyTests {
    final class Counters: ObservableObject {
        @Published var first = 0
        @Published var second = 0
    }

    struct FirstSnapshot: Equatable {
        let first: Int
    }

    @Test func deduplicatedAndPublishedUnderConcurrentWrites() {
        let counters = Counters()
        let deduplicated = counters.deduplicated { FirstSnapshot(first: $0.first) }
        let forwarded = TestSubscriber<Void, Never>()
        let willChange = TestSubscriber<Void, Never>()
        deduplicated.objectWillChange.subscribe(forwarded)
        counters.objectWillChange.subscribe(willChange)
        let shared = UncheckedBox(counters)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 1...200 {
                if thread == 0 {
                    shared.value.first = index
                } else {
                    shared.value.second = thread * 1000 + index
                }
            }
        }
        #expect(willChange.values.count == 800)
        // A comparison may run on another writer's thread, after several writes of `first`: changes
        // coalesce, so at most one notification per write of `first`, none for `second`, and the
        // last snapshot is the final value.
        #expect((1...200).contains(forwarded.values.count))
        #expect(deduplicated.snapshot == FirstSnapshot(first: 200))
    }

    @Test func observedPublisherAndStoreUnderConcurrentUpdates() {
        struct State: Equatable {
            var fields = [0, 0, 0, 0]
        }
        let store = Store(State())
        let observed = ObservedPublisher(publisher: store.slice(\.fields[0]), initial: -1)
        let sliceValues = TestSubscriber<Int, Never>()
        observed.projectedValue.subscribe(sliceValues)
        DispatchQueue.concurrentPerform(iterations: 4) { field in
            for _ in 0..<250 {
                store.update { $0.fields[field] += 1 }
            }
        }
        #expect(store.state.fields == [250, 250, 250, 250])
        #expect(observed.wrappedValue == 250)
        #expect(sliceValues.values == Array(0...250))
    }

    @Test func publishedWithAssignAndManyReaders() {
        final class Model: ObservableObject {
            @Published var value = 0
        }
        let model = Model()
        let source = PassthroughSubject<Int, Never>()
        source.assign(to: &model.$value)
        let values = TestSubscriber<Int, Never>()
        model.$value.subscribe(values)
        let shared = UncheckedBox(model)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 1...250 {
                if thread == 0 { source.send(index) } else { _ = shared.value.value }
            }
        }
        #expect(model.value == 250)
        #expect(values.values == Array(0...250))
    }
}
