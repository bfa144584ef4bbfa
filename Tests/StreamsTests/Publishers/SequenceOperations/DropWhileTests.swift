import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct DropWhileTests {
    @Test func dropsUntilThePredicateFirstFailsThenPassesEverything() {
        let subscriber = TestSubscriber<Int, Never>()
        [-40, -10, 0, 10, 0, 100].publisher.drop { $0 <= 0 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(10), .value(0), .value(100), .completion(.finished)])
    }

    @Test func neverCallsThePredicateAgainAfterItFails() {
        let upstream = SelectionUpstream<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        let tested = Mutex<[String]>([])
        upstream.drop { word in
            tested.withLock { $0.append(word) }
            return word.count > 3
        }
        .subscribe(subscriber)
        for word in ["hello", "world", "abc", "xyzzy", "fini"] { upstream.send(word) }
        #expect(subscriber.values == ["abc", "xyzzy", "fini"])
        #expect(tested.withLock { $0 } == ["hello", "world", "abc"])
    }

    @Test func replacesEachDroppedElementWithARequestForOneMore() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(5))
        upstream.drop { $0 < 3 }.subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(2))])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .max(5))
        #expect(upstream.send(1) == .max(5))
        #expect(subscriber.values == [3, 1])
    }

    @Test func honoursBoundedDemandFromASequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (1...6).publisher.drop { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.values == [4])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .value(6), .completion(.finished)])
    }

    @Test func failurePassesThrough() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.drop { $0 < 0 }.subscribe(subscriber)
        upstream.send(-1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func tryDropThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryDrop { value in
            if value == 0 { throw SelectionTestError.oops }
            return value < 4
        }
        .subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.send(0) == Subscribers.Demand.none)
        #expect(upstream.send(5) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func tryDropStopsCallingThePredicateOnceItFails() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 2, 3, 4, 5, 6, -1, 7, 8, 9, 10].publisher
            .tryDrop { value in
                if value == -1 { throw SelectionTestError.oops }
                return value < 4
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [4, 5, 6, -1, 7, 8, 9, 10])
        #expect(subscriber.typedEvents.last == .completion(.finished))
    }

    @Test func tryDropPassesUpstreamFailureOn() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryDrop { _ in true }.subscribe(subscriber)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop { _ in false }.subscribe(subscriber)
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
        (1...5).publisher.drop { $0 < 3 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryDrop { $0 < 5 }.subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func describesItselfAsCombineDoes() throws {
        let dropping = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).drop { _ in true }.subscribe(dropping)
        #expect(String(describing: try #require(dropping.subscription)) == "DropWhile")
        let trying = TestSubscriber<Int, any Error>()
        Empty<Int, Never>(completeImmediately: false).tryDrop { _ in true }.subscribe(trying)
        #expect(String(describing: try #require(trying.subscription)) == "TryDropWhile")
    }

    @Test func passesEverythingAfterTheFirstKeptElementFromManyThreads() throws {
        let subject = PassthroughSubject<Int, Never>()
        let everything = TestSubscriber<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(everything)
        subject.drop { $0 < 0 }.subscribe(subscriber)
        subject.send(-1)
        subject.send(-2)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(thread % 2 == 0 ? value : -value - 1) }
        }
        // The subject hands every value to both subscribers in one order; dropping ends at the first
        // non-negative value.
        let start = try #require(everything.values.firstIndex { $0 >= 0 })
        #expect(subscriber.values == Array(everything.values[start...]))
        #expect(everything.values.count == 2_002)
    }
}
