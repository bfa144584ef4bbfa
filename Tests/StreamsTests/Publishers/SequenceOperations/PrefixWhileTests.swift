import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct PrefixWhileTests {
    @Test func republishesWhileThePredicateHoldsThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        (0...9).publisher.prefix { $0 < 5 }.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .completion(.finished),
            ])
    }

    @Test func cancelsUpstreamBeforeFinishingAndIgnoresTheRest() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        let upstreamAtFinish = Mutex<[SelectionUpstreamEvent]>([])
        let tested = Mutex<[Int]>([])
        upstream.prefix { value in
            tested.withLock { $0.append(value) }
            return value > 0
        }
        .subscribe(
            AnySubscriber(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { completion in
                    upstreamAtFinish.withLock { $0 = upstream.events }
                    subscriber.receive(completion: completion)
                }))
        #expect(upstream.events == [.requested(.max(2))])
        #expect(upstream.send(3) == .max(1))
        #expect(upstream.send(0) == Subscribers.Demand.none)
        #expect(upstream.send(4) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
        #expect(upstreamAtFinish.withLock { $0 } == [.requested(.max(2)), .cancelled])
        #expect(tested.withLock { $0 } == [3, 0])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.eraseToAnyPublisher().prefix { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func upstreamCompletionPassesThrough() {
        let finishing = TestSubscriber<Int, Never>()
        [1, 2].publisher.prefix { _ in true }.subscribe(finishing)
        #expect(finishing.events == [.subscription, .value(1), .value(2), .completion(.finished)])

        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let failing = TestSubscriber<Int, SelectionTestError>()
        upstream.prefix { _ in true }.subscribe(failing)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(failing.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func tryPrefixThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryPrefix { value in
            if value == 3 { throw SelectionTestError.oops }
            return value < 5
        }
        .subscribe(subscriber)
        for value in 0...4 { upstream.send(value) }
        #expect(
            subscriber.typedEvents == [
                .subscription, .value(0), .value(1), .value(2), .completion(.failure(.oops)),
            ])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func tryPrefixFinishesLikePrefix() {
        let subscriber = TestSubscriber<Int, any Error>()
        (0...9).publisher.tryPrefix { $0 < 2 }.subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .value(0), .value(1), .completion(.finished)])
    }

    @Test func tryPrefixPassesUpstreamFailureOn() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryPrefix { _ in true }.subscribe(subscriber)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix { _ in true }.subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelFromInsideReceiveStopsTheSequence() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        (1...5).publisher.prefix { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func releasesEverythingAfterFinishingEarly() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            subject.prefix { $0 < 2 }.subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(2)
        }
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func describesItselfAsCombineDoes() throws {
        let prefixing = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).prefix { _ in true }.subscribe(prefixing)
        #expect(String(describing: try #require(prefixing.subscription)) == "PrefixWhile")
        let trying = TestSubscriber<Int, any Error>()
        Empty<Int, Never>(completeImmediately: false).tryPrefix { _ in true }.subscribe(trying)
        #expect(String(describing: try #require(trying.subscription)) == "TryPrefixWhile")
    }

    @Test func stopsAtTheFirstRejectedElementFromManyThreads() throws {
        let subject = PassthroughSubject<Int, Never>()
        let everything = TestSubscriber<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(everything)
        subject.prefix { $0 >= 0 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(value) }
            if thread == 3 { subject.send(-1) }
            for value in 0..<250 { subject.send(value) }
        }
        // The subject hands every value to both subscribers in one order; the prefix ends at -1.
        let cut = try #require(everything.values.firstIndex(of: -1))
        #expect(subscriber.values == Array(everything.values[..<cut]))
        #expect(subscriber.completion == .finished)
    }
}
