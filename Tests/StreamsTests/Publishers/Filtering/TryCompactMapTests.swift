import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct TryCompactMapTests {
    @Test func republishesNonNilResults() {
        let subscriber = TestSubscriber<Int, any Error>()
        ["1", "two", "3"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(3), .completion(.finished)])
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TransformTestPublisher<String, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(3), demandPerValue: .max(10))
        upstream.tryCompactMap { text -> Int? in
            calls.withLock { $0 += 1 }
            if text == "throw" { throw TransformTestError.thrown(0) }
            return Int(text)
        }.subscribe(subscriber)
        #expect(upstream.send("2") == .max(10))
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("throw") == Subscribers.Demand.none)
        #expect(upstream.calls == [.request(.max(3)), .cancel])
        #expect(upstream.send("9") == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.transformEvents == [.subscription, .value(2), .completion(.failure(.thrown(0)))])
        #expect(upstream.calls == [.request(.max(3)), .cancel])
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCompactMap { $0 > 0 ? $0 : nil }.subscribe(subscriber)
        upstream.send(-1)
        upstream.send(3)
        upstream.send(completion: .failure(.upstream))
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(3), .completion(.failure(.upstream))])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        [nil, 1, nil, 2, nil, 3].publisher.tryCompactMap { $0 }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCompactMap { $0 }.subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(1)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, any Error>()
        subscriber.onReceiveValue { value in
            if value == 3 { subscriber.cancel() }
        }
        (1...9).publisher.tryCompactMap { $0 }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
    }

    @Test func interposesASubscriptionNamedTryCompactMap() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCompactMap { $0 }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        #expect(TransformReflection(of: subscription) == .named("TryCompactMap", children: ["downstream"]))
    }

    @Test func fusedCompactMapIsOneTryCompactMap() {
        let subject = PassthroughSubject<String, Never>()
        let fused = subject.tryCompactMap { text -> Int? in
            if text == "throw" { throw TransformTestError.thrown(1) }
            return Int(text)
        }.compactMap { value -> Int? in
            if value < 0 { throw TransformTestError.thrown(value) }
            return value.isMultiple(of: 2) ? value / 2 : nil
        }
        #expect(type(of: fused) == Publishers.TryCompactMap<PassthroughSubject<String, Never>, Int>.self)
        #expect(fused.upstream === subject)

        let first = TestSubscriber<Int, any Error>()
        fused.subscribe(first)
        for text in ["0", "3", "a", "12", "throw", "4"] { subject.send(text) }
        #expect(first.transformEvents == [.subscription, .value(0), .value(6), .completion(.failure(.thrown(1)))])

        let second = TestSubscriber<Int, any Error>()
        fused.subscribe(second)
        for text in ["8", "-3", "4"] { subject.send(text) }
        #expect(second.transformEvents == [.subscription, .value(4), .completion(.failure(.thrown(-3)))])
    }

    @Test func releasesEverythingAfterAThrow() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryCompactMap { value -> Int? in throw TransformTestError.thrown(value) }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(5)
            #expect(subscriber.transformEvents == [.subscription, .completion(.failure(.thrown(5)))])
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentRequestsDeliverEveryValueOnce() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        (1...16_000).publisher.tryCompactMap { $0.isMultiple(of: 2) ? $0 : nil }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { subscriber.request(.max(1)) }
        }
        #expect(subscriber.values == Array(stride(from: 2, through: 16_000, by: 2)))
        #expect(subscriber.transformEvents.last == .completion(.finished))
    }
}
