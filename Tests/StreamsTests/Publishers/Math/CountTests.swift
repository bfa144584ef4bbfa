import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CountTests {
    @Test func publishesNumberOfElementsOnFinish() {
        let subscriber = TestSubscriber<Int, Never>()
        ["a", "b", "c"].publisher.count().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func emptyUpstreamCountsZero() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().count().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func holdsCountUntilDownstreamAsks() {
        let upstream = SelectionUpstream<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.count().subscribe(subscriber)
        upstream.send("x")
        upstream.send("y")
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func failureReplacesCount() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.count().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .completion(.failure(.other))])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "Count") { $0.count() }
        checkReduceLikeCombineDetails { $0.count() }
    }

    @Test func countsValuesSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.count().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for value in 0..<1_000 { subject.send(value) }
        }
        subject.send(completion: .finished)
        #expect(subscriber.values == [8_000])
    }

    @Test func equatableWhenUpstreamIs() {
        let finishing = Empty<Int, Never>(completeImmediately: true)
        let endless = Empty<Int, Never>(completeImmediately: false)
        #expect(finishing.count() == finishing.count())
        #expect(finishing.count() != endless.count())
    }
}
