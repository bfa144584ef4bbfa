import Streams
import StreamsTesting
import Testing

@Suite struct PassthroughSubjectTests {
    @Test func deliversValuesThenCompletionInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func pipelineOfMapFilterRemoveDuplicates() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellable = subject.map { $0 / 2 }.filter { $0 != 3 }.removeDuplicates().map { "\($0)" }
            .sink { received.append($0) }
        for value in 0..<10 { subject.send(value) }
        #expect(received == ["0", "1", "2", "4"])
        cancellable.cancel()
        subject.send(100)
        #expect(received == ["0", "1", "2", "4"])
    }
}
