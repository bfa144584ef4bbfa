import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct TryScanTests {
    @Test func publishesEveryRunningResult() {
        let subscriber = TestSubscriber<Int, any Error>()
        (1...4).publisher.tryScan(0, +).subscribe(subscriber)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(1), .value(3), .value(6), .value(10), .completion(.finished),
            ])
    }

    /// Like Combine, a throw cancels upstream and fails downstream, but later values are still
    /// accumulated from the last good result and published.
    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TransformTestPublisher<Int, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited, demandPerValue: .max(3))
        upstream.tryScan(0) { total, next in
            calls.withLock { $0 += 1 }
            if next == 100 { throw TransformTestError.thrown(total) }
            return total + next
        }.subscribe(subscriber)
        #expect(upstream.send(2) == .max(3))
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(100) == Subscribers.Demand.none)
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(upstream.send(9) == .max(3))
        #expect(upstream.send(100) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(2), .value(5), .completion(.failure(.thrown(5))), .value(14),
            ])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(calls.withLock { $0 } == 5)
    }

    /// The first completion is passed on and lets go of upstream; like Combine, later values are
    /// still accumulated and published.
    @Test func forwardsTheUpstreamFailureOnceAndKeepsAccumulating() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0, +).subscribe(subscriber)
        upstream.send(4)
        upstream.send(completion: .failure(.upstream))
        upstream.send(completion: .finished)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(4), .completion(.failure(.upstream)), .value(5),
            ])
        #expect(upstream.calls == [.request(.unlimited)])
    }

    @Test func accumulatesAndPublishesValuesBeforeTheSubscription() {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none, demandPerValue: .max(2))
        upstream.tryScan(10, +).subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        upstream.send(completion: .finished)
        upstream.innerSubscription?.cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(upstream.send(2) == .max(2))
        #expect(subscriber.transformEvents == [.value(11), .subscription, .value(13)])
        #expect(late.events == [])
    }

    @Test func passesDemandUp() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
        upstream.tryScan(0, +).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(upstream.calls == [.request(.max(2)), .request(.max(3))])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        (1...4).publisher.tryScan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 3, 6])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(1), .value(3), .value(6), .value(10), .completion(.finished),
            ])
    }

    /// Cancel reaches upstream once and ends the subscription; values a misbehaving upstream sends
    /// afterwards are still accumulated and published, as in Combine.
    @Test func cancelReachesUpstreamOnce() {
        let upstream = TransformTestPublisher<Int, Never>()
        let calls = Mutex(0)
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0) { total, next in
            calls.withLock { $0 += 1 }
            return total + next
        }.subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(3)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func cancelFromInsideTheClosureStillPublishesItsResult() {
        let subscriber = TestSubscriber<Int, any Error>()
        let subject = PassthroughSubject<Int, Never>()
        subject.tryScan(0) { total, next in
            if next == 3 { subscriber.cancel() }
            return total + next
        }.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(3), .value(6)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        [5, 6, 7].publisher.tryScan(0, +).subscribe(subscriber)
        #expect(
            subscriber.transformEvents == [.subscription, .value(5), .value(11), .value(18), .completion(.finished)])
    }

    @Test func cancelsASecondSubscription() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0, +).subscribe(subscriber)
        let second = TransformCountingSubscription()
        upstream.send(subscription: second)
        #expect(second.cancels == 1)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func interposesASubscriptionNamedTryScan() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0, +).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        #expect(
            TransformReflection(of: subscription) == .named("TryScan", children: ["downstream", "status", "result"]))
        upstream.send(20)
        upstream.send(22)
        let result = Mirror(reflecting: subscription).children.first { $0.label == "result" }?.value as? Int
        #expect(result == 42)
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryScan(0, +).subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryScan(0, +).subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(completion: .finished)
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentSendsAccumulateExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryScan(0) { count, _ in count + 1 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { subject.send(1) }
        }
        #expect(subscriber.values == Array(1...4_000))
    }

    @Test func concurrentRequestsDeliverEveryResultOnce() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        (1...8_000).publisher.tryScan(0, +).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { subscriber.request(.max(1)) }
        }
        let values = subscriber.values
        #expect(values.count == 8_000)
        #expect(values.last == 8_000 * 8_001 / 2)
        #expect(subscriber.transformEvents.last == .completion(.finished))
    }
}
