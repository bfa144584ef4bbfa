import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct TryRemoveDuplicatesTests {
    @Test func dropsValuesThePredicateCallsDuplicates() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 1, 2, 2, 2, 3, 1].publisher.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        #expect(
            subscriber.transformEvents == [
                .subscription, .value(1), .value(2), .value(3), .value(1), .completion(.finished),
            ])
    }

    @Test func predicateGetsTheLastPublishedThenTheCurrentValue() {
        let pairs = Mutex<[[Int]]>([])
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 2, 3, 4, 10].publisher.tryRemoveDuplicates { previous, current in
            pairs.withLock { $0.append([previous, current]) }
            return abs(previous - current) <= 1
        }.subscribe(subscriber)
        #expect(subscriber.values == [1, 3, 10])
        #expect(pairs.withLock { $0 } == [[1, 2], [1, 3], [3, 4], [3, 10]])
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited, demandPerValue: .max(2))
        upstream.tryRemoveDuplicates { previous, current in
            if current < previous { throw TransformTestError.thrown(current) }
            return previous == current
        }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(4) == .max(2))
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(upstream.send(5) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(4), .completion(.failure(.thrown(2)))])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func firstValueNeverCallsThePredicate() {
        let subscriber = TestSubscriber<Int, any Error>()
        Just(8).eraseToAnyPublisher().tryRemoveDuplicates { _, _ in throw TransformTestError.thrown(8) }.subscribe(
            subscriber)
        #expect(subscriber.transformEvents == [.subscription, .value(8), .completion(.finished)])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        upstream.send(3)
        upstream.send(completion: .failure(.upstream))
        upstream.send(completion: .finished)
        #expect(subscriber.transformEvents == [.subscription, .value(3), .completion(.failure(.upstream))])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        [1, 1, 1, 2, 2, 3].publisher.tryRemoveDuplicates(by: ==).subscribe(subscriber)
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
        upstream.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(subscriber.transformEvents == [.subscription, .value(1)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, any Error>()
        subscriber.onReceiveValue { value in
            if value == 2 { subscriber.cancel() }
        }
        [1, 2, 2, 3].publisher.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        #expect(subscriber.transformEvents == [.subscription, .value(1), .value(2)])
    }

    @Test func interposesASubscriptionNamedTryRemoveDuplicates() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        let reflection = TransformReflection(of: subscription)
        #expect(reflection.description == "TryRemoveDuplicates")
        #expect(reflection.playgroundDescription == "TryRemoveDuplicates")
        #expect(reflection.childLabels == ["downstream", "last"])
    }

    @Test func mirrorShowsTheLastPublishedValue() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func last() -> String? {
            Mirror(reflecting: subscription).children.first { $0.label == "last" }.map { String(describing: $0.value) }
        }
        #expect(last() == "nil")
        upstream.send(2)
        upstream.send(2)
        #expect(last() == "Optional(2)")
    }

    @Test func releasesEverythingAfterAThrow() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, any Error>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryRemoveDuplicates { _, current in throw TransformTestError.thrown(current) }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(1)
            subject.send(2)
            #expect(subscriber.transformEvents == [.subscription, .value(1), .completion(.failure(.thrown(2)))])
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentEqualSendsPassOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { subject.send(7) }
        }
        #expect(subscriber.values == [7])
    }

    @Test func concurrentDistinctSendsAllPass() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryRemoveDuplicates(by: ==).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread * 500 + index) }
        }
        #expect(subscriber.values.count == 4_000)
        #expect(Set(subscriber.values) == Set(0..<4_000))
    }
}
