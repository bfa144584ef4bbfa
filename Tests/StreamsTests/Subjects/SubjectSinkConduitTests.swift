import Dispatch
import Foundation
import Streams
import Testing

/// A subject calls a sink's value closure without the sink's lock: these tests hold it to what the
/// sink itself would do.
@Suite(.timeLimit(.minutes(1))) struct SubjectSinkConduitTests {
    @Test func aSinkCompletedByHandReceivesNothingMoreFromEachKindOfSubject() {
        let passthrough = PassthroughSubject<Int, Never>()
        let currentValue = CurrentValueSubject<Int, Never>(0)
        let objectWillChange = ObservableObjectPublisher()
        var received: [String] = []
        let sinks = [
            Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append("p\($0)") }),
            Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append("c\($0)") }),
        ]
        let changes = Subscribers.Sink<Void, Never>(receiveCompletion: { _ in }, receiveValue: { received.append("o") })
        passthrough.subscribe(sinks[0])
        currentValue.subscribe(sinks[1])
        objectWillChange.subscribe(changes)
        passthrough.send(1)
        currentValue.send(1)
        objectWillChange.send()
        for sink in sinks { sink.receive(completion: .finished) }
        changes.receive(completion: .finished)
        passthrough.send(2)
        currentValue.send(2)
        objectWillChange.send()
        #expect(received == ["c0", "p1", "c1", "o"])
    }

    @Test func aSinkCancelledByAnEarlierSinkMissesTheValueBeingDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        var second: AnyCancellable?
        let first = subject.sink { value in
            received.append("first \(value)")
            if value == 2 { second = nil }
        }
        second = subject.sink { received.append("second \($0)") }
        let third = subject.sink { received.append("third \($0)") }
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(received == ["first 1", "second 1", "third 1", "first 2", "third 2", "first 3", "third 3"])
        #expect(second == nil)
        _ = (first, third)
    }

    @Test func aSinkThatCancelsItselfIsLetGoOnceTheDeliveryEnds() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Tracked?
        var cancellable: AnyCancellable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            cancellable = subject.sink { value in
                tracked.value = value
                cancellable = nil
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(weakTracked == nil)
        #expect(cancellable == nil)
    }

    @Test func aSinkCancelledWhileAnotherThreadDeliversReceivesNothingMoreAndIsLetGoAfter() {
        let subject = PassthroughSubject<Int, Never>()
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let received = LockedState<[Int]>([])
        weak var weakTracked: Tracked?
        let first = subject.sink { value in
            guard value == 2 else { return }
            inside.signal()
            proceed.wait()
        }
        var second: AnyCancellable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            second = subject.sink { value in
                tracked.value = value
                received.withLock { $0.append(value) }
            }
        }
        subject.send(1)
        let sent = DispatchSemaphore(value: 0)
        Thread {
            subject.send(2)
            sent.signal()
        }.start()
        inside.wait()  // the other thread is delivering 2 and is inside the first sink
        second?.cancel()
        second = nil
        proceed.signal()
        sent.wait()
        subject.send(3)
        #expect(received.withLock { $0 } == [1])
        #expect(weakTracked == nil)
        _ = first
    }
}
