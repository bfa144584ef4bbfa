import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct LastTests {
    @Test func publishesLastElementOnFinish() {
        let upstream = SelectionUpstream<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        upstream.last().subscribe(subscriber)
        for word in ["hello", "world", "fini"] { #expect(upstream.send(word) == Subscribers.Demand.none) }
        #expect(subscriber.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("fini"), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func lastElementWaitsForDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (-10...10).publisher.last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(10), .completion(.finished)])
    }

    @Test func emptyUpstreamFinishesWithoutValue() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func emptyUpstreamWithoutDemandWaitsForDemandToFinish() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.last().subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failureDropsLastElement() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func keepsOneOfTheValuesSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.last().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<100 { subject.send(thread * 100 + value) }
        }
        subject.send(-1)
        subject.send(completion: .finished)
        #expect(subscriber.values == [-1])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "Last") { $0.last() }
        checkReduceLikeCombineDetails { $0.last() }
    }

    @Test func equatableWhenUpstreamIs() {
        #expect(Empty<Int, Never>().last() == Empty<Int, Never>().last())
        #expect(Empty<Int, Never>().last() != Empty<Int, Never>(completeImmediately: false).last())
    }
}
