import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct TryFilterTests {
    @Test func republishesIncludedValues() {
        let subscriber = TestSubscriber<Int, any Error>()
        (1...7).publisher.tryFilter { $0 % 3 == 1 }.subscribe(subscriber)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(4), .value(7), .completion(.finished)])
    }

    @Test func asksForOneMoreForEachRejectedValue() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2), demandPerValue: .max(6))
        upstream.tryFilter { $0 > 0 }.subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(2))])
        #expect(upstream.send(1) == .max(6))
        #expect(upstream.send(-1) == .max(1))
        #expect(upstream.send(5) == .max(6))
        #expect(subscriber.values == [1, 5])
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TransformTestPublisher<Int, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { value in
            calls.withLock { $0 += 1 }
            if value == 0 { throw TransformTestError.thrown(0) }
            return value > 1
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.send(0) == Subscribers.Demand.none)
        #expect(upstream.send(3) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(2), .completion(.failure(.thrown(0)))])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(subscriber)
        upstream.send(completion: .failure(.upstream))
        upstream.send(1)
        #expect(subscriber.transformEvents == [.subscription, .completion(.failure(.upstream))])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
        (1...10).publisher.tryFilter { $0.isMultiple(of: 3) }.subscribe(subscriber)
        #expect(subscriber.values == [3, 6])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [3, 6, 9])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.transformEvents == [.subscription, .value(3), .value(6), .value(9), .completion(.finished)])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(subscriber.transformEvents == [.subscription])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...10).publisher.tryFilter { $0 > 7 }.subscribe(subscriber)
        #expect(
            subscriber.transformEvents == [.subscription, .value(8), .value(9), .value(10), .completion(.finished)])
    }

    @Test func interposesASubscriptionNamedTryFilter() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        #expect(TransformReflection(of: subscription) == .named("TryFilter", children: ["downstream"]))
    }

    @Test func fusedFilterAndTryFilterStayOneTryFilter() {
        let subject = PassthroughSubject<Int, Never>()
        let thirdCalls = Mutex<[Int]>([])
        let fused = subject.tryFilter { value in
            if value < 0 { throw TransformTestError.thrown(value) }
            return value > 0
        }.filter { $0.isMultiple(of: 2) }.tryFilter { value in
            thirdCalls.withLock { $0.append(value) }
            if value == 100 { throw TransformTestError.thrown(100) }
            return value != 6
        }
        #expect(type(of: fused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
        #expect(fused.upstream === subject)

        let first = TestSubscriber<Int, any Error>()
        fused.subscribe(first)
        for value in [0, 1, 2, 3, 4, 6, 8, -1, 10] { subject.send(value) }
        #expect(
            first.transformEvents == [
                .subscription, .value(2), .value(4), .value(8), .completion(.failure(.thrown(-1))),
            ])
        #expect(thirdCalls.withLock { $0 } == [2, 4, 6, 8])

        let second = TestSubscriber<Int, any Error>()
        fused.subscribe(second)
        subject.send(100)
        #expect(second.transformEvents == [.subscription, .completion(.failure(.thrown(100)))])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryFilter { _ in true }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentSendsAreFilteredExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryFilter { $0.isMultiple(of: 5) }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1_000 { subject.send(thread * 1_000 + index) }
        }
        #expect(subscriber.values.count == 1_600)
        #expect(Set(subscriber.values) == Set(stride(from: 0, to: 8_000, by: 5)))
    }
}
