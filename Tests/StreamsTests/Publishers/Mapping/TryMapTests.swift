import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct TryMapTests {
    @Test func transformsEveryValueThenFinishes() {
        let subscriber = TestSubscriber<String, any Error>()
        [1, 2, 3].publisher.tryMap { "<\($0 * 10)>" }.subscribe(subscriber)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value("<10>"), .value("<20>"), .value("<30>"), .completion(.finished),
            ])
    }

    /// Like Combine, a throw does not stop the operator: upstream is cancelled once, and each later
    /// value is still transformed, and each later throw fails downstream again.
    @Test func throwCancelsUpstreamAndFailsWithTheError() {
        let upstream = TransformTestPublisher<Int, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited, demandPerValue: .max(1))
        upstream.tryMap { value -> Int in
            calls.withLock { $0 += 1 }
            if value == 3 { throw TransformTestError.thrown(value) }
            return value * 2
        }.subscribe(subscriber)

        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == Subscribers.Demand.none)
        #expect(upstream.calls == [.request(.unlimited), .cancel])

        #expect(upstream.send(4) == .max(1))
        #expect(upstream.send(3) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscriber.request(.max(3))
        subscriber.cancel()

        #expect(
            subscriber.transformEvents == [
                .subscription, .value(2), .value(4), .completion(.failure(.thrown(3))), .value(8),
                .completion(.failure(.thrown(3))),
            ])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(calls.withLock { $0 } == 5)
    }

    @Test func forwardsTheUpstreamFailureOnceAndStillMapsLaterValues() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { $0 + 1 }.subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(.upstream))
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(
            subscriber.transformEvents == [.subscription, .value(2), .completion(.failure(.upstream)), .value(3)])
        #expect(upstream.calls == [.request(.unlimited)])
    }

    @Test func passesDemandUpAndBackUnchanged() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.tryMap { $0 }.subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(2))])
        #expect(upstream.send(7) == .max(3))
        subscriber.request(.max(5))
        subscriber.request(.unlimited)
        #expect(upstream.calls == [.request(.max(2)), .request(.max(5)), .request(.unlimited)])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        (1...5).publisher.tryMap { $0 * $0 }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 4, 9])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(1), .value(4), .value(9), .value(16), .value(25), .completion(.finished),
            ])
    }

    /// Cancel reaches upstream once and ends the subscription; values a misbehaving upstream sends
    /// afterwards are still transformed, as in Combine.
    @Test func cancelReachesUpstreamOnce() {
        let upstream = TransformTestPublisher<Int, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { value -> Int in
            calls.withLock { $0 += 1 }
            return value
        }.subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        subscriber.subscription?.cancel()
        #expect(upstream.calls == [.request(.unlimited), .cancel])

        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscriber.subscription?.request(.max(1))
        subscriber.subscription?.cancel()

        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(2)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, any Error>()
        subscriber.onReceiveValue { value in
            if value == 3 { subscriber.cancel() }
        }
        (1...10).publisher.tryMap { $0 }.subscribe(subscriber)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(2), .value(3)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...6).publisher.tryMap { $0 * 3 }.subscribe(subscriber)
        #expect(subscriber.values == [3, 6, 9, 12, 15, 18])
        #expect(subscriber.transformEvents.last == .completion(.finished))
    }

    @Test func cancelsASecondSubscription() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { $0 }.subscribe(subscriber)
        let second = TransformCountingSubscription()
        upstream.send(subscription: second)
        #expect(second.cancels == 1)
        #expect(second.requests == 0)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func transformsValuesBeforeTheSubscriptionAndIgnoresCancelThen() {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1), demandPerValue: .max(4))
        upstream.tryMap { $0 * 3 }.subscribe(subscriber)
        #expect(upstream.send(2) == .max(4))
        upstream.send(completion: .finished)
        upstream.innerSubscription?.cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.requested(.max(1))])
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.value(6), .subscription, .completion(.finished)])
    }

    @Test func interposesASubscriptionNamedTryMap() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { $0 }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        #expect(TransformReflection(of: subscription) == .named("TryMap"))
        #expect(TransformReflection(of: try #require(upstream.subscriber)) == .named("TryMap"))
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryMap { $0 + 1 }.subscribe(subscriber)
            subject.send(1)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subscriber.cancel()
            subject.send(2)
            #expect(subscriber.values == [2])
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterAThrow() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryMap { _ -> Int in throw TransformTestError.thrown(0) }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(1)
            #expect(subscriber.transformEvents == [.subscription, .completion(.failure(.thrown(0)))])
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func fusedMapStaysOneTryMap() throws {
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.tryMap { value -> Int in
            if value < 0 { throw TransformTestError.thrown(value) }
            return value * 2
        }
        let fused = first.map { "#\($0)" }
        #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, String>.self)
        #expect(fused.upstream === subject)

        let subscriber = TestSubscriber<String, any Error>()
        fused.subscribe(subscriber)
        #expect(TransformReflection(of: try #require(subscriber.subscription)) == .named("TryMap"))
        subject.send(1)
        subject.send(5)
        subject.send(-2)
        subject.send(3)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value("#2"), .value("#10"), .completion(.failure(.thrown(-2))),
            ])
    }

    @Test func fusedTryMapStaysOneTryMapAndEitherStageCanThrow() {
        let subject = PassthroughSubject<Int, Never>()
        let fused = subject.tryMap { value -> Int in
            if value == 0 { throw TransformTestError.thrown(0) }
            return 100 / value
        }.tryMap { value -> String in
            if value > 50 { throw TransformTestError.thrown(value) }
            return String(value)
        }
        #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, String>.self)

        let first = TestSubscriber<String, any Error>()
        fused.subscribe(first)
        subject.send(4)
        subject.send(1)
        #expect(first.transformEvents == [.subscription, .value("25"), .completion(.failure(.thrown(100)))])

        let second = TestSubscriber<String, any Error>()
        fused.subscribe(second)
        subject.send(10)
        subject.send(0)
        #expect(second.transformEvents == [.subscription, .value("10"), .completion(.failure(.thrown(0)))])
    }

    @Test func concurrentRequestsDeliverEveryValueOnce() {
        let count = 8_000
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        (1...count).publisher.tryMap { $0 * 2 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<(count / 8) { subscriber.request(.max(1)) }
        }
        #expect(subscriber.values == (1...count).map { $0 * 2 })
        #expect(subscriber.transformEvents.last == .completion(.finished))
    }

    @Test func concurrentSendsThroughASubjectAreAllDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryMap { $0 + 1 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread * 1_000 + index) }
        }
        subject.send(completion: .finished)
        let values = subscriber.values
        #expect(values.count == 4_000)
        #expect(Set(values) == Set((0..<8).flatMap { thread in (0..<500).map { thread * 1_000 + $0 + 1 } }))
        #expect(subscriber.transformEvents.last == .completion(.finished))
    }
}
