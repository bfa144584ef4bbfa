import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct ContainsTests {
    @Test func publishesTrueAndCancelsUpstreamAtFirstMatch() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        let upstreamAtValue = Mutex<[SelectionUpstreamEvent]>([])
        subscriber.onReceiveValue { _ in upstreamAtValue.withLock { $0 = upstream.events } }
        upstream.contains(5).subscribe(subscriber)
        #expect(upstream.send(-1) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.send(5) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(upstreamAtValue.withLock { $0 } == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(5) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func publishesFalseWhenUpstreamFinishesWithoutMatch() {
        let subscriber = TestSubscriber<Bool, Never>()
        [1, 2, 3].publisher.contains(4).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func emptyUpstreamPublishesFalse() {
        let subscriber = TestSubscriber<Bool, Never>()
        Empty<String, Never>().contains("a").subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func stopsPullingFromASequenceAtTheMatch() {
        let subscriber = TestSubscriber<Bool, Never>()
        let seen = Mutex<[Int]>([])
        (1...1_000).publisher.eraseToAnyPublisher()
            .map { value in
                seen.withLock { $0.append(value) }
                return value
            }
            .contains(3)
            .subscribe(subscriber)
        #expect(subscriber.values == [true])
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test func earlyResultWaitsForDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
        upstream.contains(2).subscribe(subscriber)
        upstream.send(2)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func cancelWhileEarlyResultWaitsDropsIt() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
        upstream.contains(2).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(2)
        subscription.cancel()
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "Contains") { $0.contains(42) }
        checkReduceLikeCombineDetails { $0.contains(42) }
    }

    @Test func equatableWhenUpstreamIs() {
        let upstream = Empty<Int, Never>()
        #expect(upstream.contains(1) == upstream.contains(1))
        #expect(upstream.contains(1) != upstream.contains(2))
        #expect(upstream.contains(1).output == 1)
    }
}
