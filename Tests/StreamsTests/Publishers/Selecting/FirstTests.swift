import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct FirstTests {
    @Test func publishesFirstElementAndCancelsUpstreamBeforeDelivering() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(1))
        let upstreamAtValue = Mutex<[SelectionUpstreamEvent]>([])
        subscriber.onReceiveValue { _ in upstreamAtValue.withLock { $0 = upstream.events } }
        upstream.first().subscribe(subscriber)
        #expect(upstream.send(25) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(25), .completion(.finished)])
        #expect(upstreamAtValue.withLock { $0 } == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(73) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(25), .completion(.finished)])
    }

    @Test func takesOnlyOneElementFromASequence() {
        let seen = Mutex<[Int]>([])
        let subscriber = TestSubscriber<Int, Never>()
        (-10...10).publisher.eraseToAnyPublisher()
            .map { value in
                seen.withLock { $0.append(value) }
                return value
            }
            .first()
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(-10), .completion(.finished)])
        #expect(seen.withLock { $0 } == [-10])
    }

    @Test func synchronousUpstreamDeliversDuringSubscribe() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(5).first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func firstElementWaitsForDemand() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.first().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        subscription.request(.unlimited)
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        subscription.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func emptyUpstreamFinishesWithoutValue() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func emptyUpstreamWithoutDemandWaitsForDemandToFinish() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.first().subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func cancelFromInsideReceiveStillFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [7, 8].publisher.first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "First") { $0.first() }
        checkReduceLikeCombineDetails { $0.first() }
    }

    @Test func equatableWhenUpstreamIs() {
        #expect(Empty<Int, Never>().first() == Empty<Int, Never>().first())
        #expect(Empty<Int, Never>().first() != Empty<Int, Never>(completeImmediately: false).first())
    }
}
