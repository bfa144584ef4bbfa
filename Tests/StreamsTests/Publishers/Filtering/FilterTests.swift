import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct FilterTests {
    @Test func republishesOnlyIncludedValues() {
        let subscriber = TestSubscriber<Int, Never>()
        (1...10).publisher.filter { $0.isMultiple(of: 3) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .value(6), .value(9), .completion(.finished)])
    }

    @Test func asksForOneMoreForEachRejectedValue() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(4))
        upstream.filter { $0 > 0 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(-1) == .max(1))
        #expect(upstream.send(0) == .max(1))
        #expect(upstream.send(2) == .max(4))
        #expect(subscriber.values == [1, 2])
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.filter { _ in true }.subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(3)), .request(.max(1)), .cancel])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(4)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [2, 4, 6])
        subscriber.request(.unlimited)
        #expect(
            subscriber.events == [
                .subscription, .value(2), .value(4), .value(6), .value(8), .value(10), .completion(.finished),
            ])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        upstream.filter { $0 != 2 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.upstream))])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 4 { subscriber.cancel() }
        }
        (1...20).publisher.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(4)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...9).publisher.filter { $0 % 3 == 1 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(4), .value(7), .completion(.finished)])
    }

    @Test func subscriberIsNamedFilter() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        upstream.filter { _ in true }.subscribe(TestSubscriber<Int, Never>())
        let reflection = TransformReflection(of: try #require(upstream.subscriber))
        #expect(reflection.description == "Filter")
        #expect(reflection.playgroundDescription == "Filter")
        #expect(reflection.childLabels == [])
    }

    @Test func fusedFilterIsOneFilterRequiringBoth() {
        let subject = PassthroughSubject<Int, Never>()
        let secondCalls = Mutex<[Int]>([])
        let fused = subject.filter { $0 > 0 }.filter { value in
            secondCalls.withLock { $0.append(value) }
            return value.isMultiple(of: 2)
        }
        #expect(type(of: fused) == Publishers.Filter<PassthroughSubject<Int, Never>>.self)
        #expect(fused.upstream === subject)
        let subscriber = TestSubscriber<Int, Never>()
        fused.subscribe(subscriber)
        for value in [-2, 1, 2, -4, 3, 4] { subject.send(value) }
        #expect(subscriber.values == [2, 4])
        #expect(secondCalls.withLock { $0 } == [1, 2, 3, 4])
    }

    @Test func fusedTryFilterIsOneTryFilter() throws {
        let subject = PassthroughSubject<Int, Never>()
        let fused = subject.filter { $0 != 0 }.tryFilter { value in
            if value < 0 { throw TransformTestError.thrown(value) }
            return value.isMultiple(of: 2)
        }
        #expect(type(of: fused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
        #expect(fused.upstream === subject)
        let subscriber = TestSubscriber<Int, any Error>()
        fused.subscribe(subscriber)
        #expect(TransformReflection(of: try #require(subscriber.subscription)).description == "TryFilter")
        for value in [0, 1, 2, 3, 4, -5, 6] { subject.send(value) }
        #expect(
            subscriber.transformEvents == [.subscription, .value(2), .value(4), .completion(.failure(.thrown(-5)))])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.filter { _ in true }.subscribe(subscriber)
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

    @Test func concurrentSendsAreFilteredExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.filter { $0.isMultiple(of: 4) }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1_000 { subject.send(thread * 1_000 + index) }
        }
        #expect(subscriber.values.count == 2_000)
        #expect(Set(subscriber.values) == Set(stride(from: 0, to: 8_000, by: 4)))
    }
}
