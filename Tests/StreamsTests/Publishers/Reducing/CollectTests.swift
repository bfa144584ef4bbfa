import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CollectTests {
    @Test func publishesEveryElementAsOneArrayOnFinish() {
        let subscriber = TestSubscriber<[Int], Never>()
        (0...4).publisher.collect().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([0, 1, 2, 3, 4]), .completion(.finished)])
    }

    @Test func emptyUpstreamPublishesEmptyArray() {
        let subscriber = TestSubscriber<[String], Never>()
        Empty<String, Never>().collect().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([]), .completion(.finished)])
    }

    @Test func holdsArrayUntilDownstreamAsks() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
        upstream.collect().subscribe(subscriber)
        for value in [3, 1, 2] { #expect(upstream.send(value) == Subscribers.Demand.none) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value([3, 1, 2]), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func failureDiscardsCollectedElements() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<[Int], SelectionTestError>()
        upstream.collect().subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "Collect") { $0.collect() }
        checkReduceLikeCombineDetails(mirrorLabels: ["count"]) { $0.collect() }
    }

    @Test func describesItselfAsCombineDoes() throws {
        let subscriber = TestSubscriber<[Int], Never>()
        Empty<Int, Never>(completeImmediately: false).collect().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Collect")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Collect")
    }

    @Test func mirrorShowsTheCountOnceTheArrayIsKnown() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
        upstream.collect().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(Mirror(reflecting: subscription).descendant("count") as? Int == 0)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(Mirror(reflecting: subscription).descendant("count") as? Int == 3)
        #expect(subscriber.events == [.subscription])
    }

    @Test func collectsEveryValueSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<500 { subject.send(thread * 500 + value) }
        }
        subject.send(completion: .finished)
        #expect(subscriber.values.first?.sorted() == Array(0..<4_000))
    }

    @Test func equatableWhenUpstreamIs() {
        let finishing = Empty<Int, Never>(completeImmediately: true)
        let endless = Empty<Int, Never>(completeImmediately: false)
        #expect(finishing.collect() == finishing.collect())
        #expect(finishing.collect() != endless.collect())
    }
}
