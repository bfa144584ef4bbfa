import Dispatch
import Streams
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct AnyCancellableTests {
    @Test func cancelRunsTheClosureOnce() {
        var count = 0
        let cancellable = AnyCancellable { count += 1 }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count == 1)
    }

    @Test func deinitCancels() {
        var count = 0
        do {
            let cancellable = AnyCancellable { count += 1 }
            _ = cancellable
        }
        #expect(count == 1)
    }

    @Test func wrapsACancellable() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.subscribe(sink)
        let cancellable = AnyCancellable(sink)
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        #expect(received == [1])
    }

    @Test func storeInSetAndArray() {
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        var count = 0
        AnyCancellable { count += 1 }.store(in: &set)
        AnyCancellable { count += 1 }.store(in: &array)
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.store(in: &set)
        #expect(set.count == 2)
        #expect(array.count == 1)
        set.removeAll()
        array.removeAll()
        #expect(count == 2)
    }

    @Test func hashableByIdentity() {
        let first = AnyCancellable {}
        let second = AnyCancellable {}
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, second, first]).count == 2)
    }

    @Test func concurrentCancelRunsOnce() {
        let count = Atomic(0)
        for _ in 0..<100 {
            let cancellable = AnyCancellable { count.add(1, ordering: .relaxed) }
            let box = UncheckedBox(cancellable)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in box.value.cancel() }
        }
        #expect(count.load(ordering: .relaxed) == 100)
    }
}

/// Carries a value that is safe to share into `concurrentPerform` for a test that checks exactly that.
struct UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked: the tests that use it exercise the wrapped value's own thread safety.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
