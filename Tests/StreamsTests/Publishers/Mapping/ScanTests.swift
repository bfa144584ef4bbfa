import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ScanTests {
    @Test func publishesEveryRunningResult() {
        let subscriber = TestSubscriber<Int, Never>()
        (0...5).publisher.scan(0, +).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(0), .value(1), .value(3), .value(6), .value(10), .value(15),
                .completion(.finished),
            ])
    }

    @Test func closureGetsThePreviousResultThenTheValue() {
        let subscriber = TestSubscriber<String, Never>()
        ["a", "b", "c"].publisher.scan(">") { $0 + $1 }.subscribe(subscriber)
        #expect(subscriber.values == [">a", ">ab", ">abc"])
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(7))
        upstream.scan(0, +).subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.send(3) == .max(7))
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(2)), .request(.max(1)), .cancel])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.scan(10, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(11), .value(13)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [11, 13, 16])
        subscriber.request(.max(2))
        #expect(
            subscriber.events == [
                .subscription, .value(11), .value(13), .value(16), .value(20), .value(25), .completion(.finished),
            ])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        upstream.scan(0, +).subscribe(subscriber)
        upstream.send(2)
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .value(2), .completion(.failure(.upstream))])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let subject = PassthroughSubject<Int, Never>()
        let running = subject.scan(100, +)
        let first = TestSubscriber<Int, Never>()
        running.subscribe(first)
        subject.send(1)
        subject.send(2)
        let second = TestSubscriber<Int, Never>()
        running.subscribe(second)
        subject.send(3)
        #expect(first.values == [101, 103, 106])
        #expect(second.values == [103])
        #expect(running.initialResult == 100)
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value >= 6 { subscriber.cancel() }
        }
        (1...10).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .value(6)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        [2, 3, 4].publisher.scan(1, *).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(6), .value(24), .completion(.finished)])
    }

    @Test func subscriberIsNamedScanAndReflectsTheResult() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        upstream.scan(0, +).subscribe(TestSubscriber<Int, Never>())
        let inner = try #require(upstream.subscriber)
        #expect(TransformReflection(of: inner) == .named("Scan", children: ["downstream", "result"]))
        upstream.send(5)
        upstream.send(4)
        let result = Mirror(reflecting: inner).children.first { $0.label == "result" }?.value as? Int
        #expect(result == 9)
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.scan(0, +).subscribe(subscriber)
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

    @Test func concurrentSendsAccumulateExactly() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.scan(0) { count, _ in count + 1 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { subject.send(1) }
        }
        #expect(subscriber.values == Array(1...4_000))
    }
}
