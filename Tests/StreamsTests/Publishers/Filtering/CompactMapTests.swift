import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct CompactMapTests {
    @Test func republishesNonNilResults() {
        let subscriber = TestSubscriber<Int, Never>()
        ["1", "two", "3", "", "5"].publisher.compactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .value(5), .completion(.finished)])
    }

    @Test func asksForOneMoreForEachNilResult() {
        let upstream = TransformTestPublisher<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(4))
        upstream.compactMap { Int($0) }.subscribe(subscriber)
        #expect(upstream.send("1") == .max(4))
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("12.5") == .max(1))
        #expect(upstream.send("6") == .max(4))
        #expect(subscriber.values == [1, 6])
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() {
        let upstream = TransformTestPublisher<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.compactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        subscriber.request(.max(2))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(3)), .request(.max(2)), .cancel])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [nil, 1, nil, nil, 2, 3, nil].publisher.compactMap { $0 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int?, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        upstream.compactMap { $0 }.subscribe(subscriber)
        upstream.send(nil)
        upstream.send(9)
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .value(9), .completion(.failure(.upstream))])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 2 { subscriber.cancel() }
        }
        [1, nil, 2, 3, nil, 4].publisher.compactMap { $0 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func subscriberIsNamedCompactMap() throws {
        let upstream = TransformTestPublisher<Int?, Never>()
        upstream.compactMap { $0 }.subscribe(TestSubscriber<Int, Never>())
        #expect(TransformReflection(of: try #require(upstream.subscriber)) == .named("CompactMap"))
    }

    @Test func fusedCompactMapIsOneCompactMap() {
        let upstream = TransformTestPublisher<String, Never>()
        let fused = upstream.compactMap { Int($0) }.compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        #expect(type(of: fused) == Publishers.CompactMap<TransformTestPublisher<String, Never>, Int>.self)
        #expect(fused.upstream === upstream)
        let subscriber = TestSubscriber<Int, Never>()
        fused.subscribe(subscriber)
        #expect(upstream.send("0") == Subscribers.Demand.none)
        #expect(upstream.send("3") == .max(1))
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("12") == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(0), .value(6), .completion(.finished)])
    }

    @Test func fusedMapIsOneCompactMap() {
        let upstream = TransformTestPublisher<String, Never>()
        let fused = upstream.compactMap { Int($0) }.map { "#\($0 + 1)" }
        #expect(type(of: fused) == Publishers.CompactMap<TransformTestPublisher<String, Never>, String>.self)
        #expect(fused.upstream === upstream)
        let subscriber = TestSubscriber<String, Never>()
        fused.subscribe(subscriber)
        #expect(upstream.send("0") == Subscribers.Demand.none)
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("41") == Subscribers.Demand.none)
        #expect(subscriber.values == ["#1", "#42"])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int?, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int?, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.compactMap { $0 }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            subject.send(1)
            subscriber.cancel()
            subject.send(2)
            #expect(subscriber.values == [1])
        }
        #expect(weakSubject == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentSendsAreUnwrappedExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.compactMap { $0.isMultiple(of: 2) ? $0 : nil }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread * 500 + index) }
        }
        #expect(subscriber.values.count == 2_000)
        #expect(subscriber.values.reduce(0, +) == stride(from: 0, to: 4_000, by: 2).reduce(0, +))
    }
}
