import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct MulticastTests {
    // MARK: Connecting

    @Test func nothingFlowsUntilConnected() {
        let upstream = PacingUpstream<Int, PacingError>()
        let multicast = upstream.multicast { PassthroughSubject<Int, PacingError>() }
        let first = TestSubscriber<Int, PacingError>()
        let second = TestSubscriber<Int, PacingError>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        #expect(first.events == [.subscription])
        #expect(upstream.events == [])

        let connection = multicast.connect()
        #expect(connection is AnyCancellable)
        #expect(upstream.events == [.requested(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        for subscriber in [first, second] {
            #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.oops))])
        }
        connection.cancel()
    }

    @Test func valuesReachEverySubscriberInTheOrderTheyAttached() {
        let order = Mutex<[String]>([])
        let multicast = [1, 2].publisher.multicast(subject: PassthroughSubject<Int, Never>())
        let first = multicast.sink { value in order.withLock { $0.append("first \(value)") } }
        let second = multicast.sink { value in order.withLock { $0.append("second \(value)") } }
        let connection = multicast.connect()
        #expect(order.withLock { $0 } == ["first 1", "second 1", "first 2", "second 2"])
        _ = (first, second, connection)
    }

    @Test func theSubjectIsCreatedOnceWhenFirstNeeded() {
        let created = Mutex(0)
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            created.withLock { $0 += 1 }
            return PassthroughSubject()
        }
        #expect(created.withLock { $0 } == 0)
        multicast.subscribe(TestSubscriber<Int, Never>())
        multicast.subscribe(TestSubscriber<Int, Never>())
        _ = multicast.connect()
        #expect(created.withLock { $0 } == 1)
    }

    @Test func cancellingTheConnectionDisconnectsWithoutCompleting() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let subscriber = TestSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        upstream.send(1)
        connection.cancel()
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1)])

        // A new connection reaches the same subscribers.
        let again = multicast.connect()
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .completion(.finished)])
        again.cancel()
    }

    @Test func connectingTwiceSubscribesTwice() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let subscriber = TestSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let first = multicast.connect()
        let second = multicast.connect()
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .value(5), .completion(.finished)])
        _ = (first, second)
    }

    // MARK: Demand

    @Test func eachSubscriberGetsWhatItAskedFor() {
        let upstream = PacingUpstream<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let greedy = TestSubscriber<Int, Never>()
        let frugal = TestSubscriber<Int, Never>(initialDemand: .max(1))
        let steady = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        let lazy = TestSubscriber<Int, Never>(initialDemand: .none)
        for subscriber in [greedy, frugal, steady, lazy] { multicast.subscribe(subscriber) }
        let connection = multicast.connect()
        for value in 1...3 { #expect(upstream.send(value) == .none) }
        #expect(greedy.values == [1, 2, 3])
        #expect(frugal.values == [1])
        #expect(steady.values == [1, 2, 3])
        #expect(lazy.values == [])

        lazy.request(.max(1))
        upstream.send(4)
        #expect(lazy.values == [4])
        // The upstream is asked for everything once; the subject holds each subscriber to its demand.
        #expect(upstream.events == [.requested(.unlimited)])
        connection.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    // MARK: Cancelling

    @Test func aCancelledSubscriberReceivesNothingMore() throws {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let leaving = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        multicast.subscribe(leaving)
        multicast.subscribe(staying)
        let connection = multicast.connect()
        upstream.send(1)
        let subscription = try #require(leaving.subscription)
        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(5))
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(leaving.events == [.subscription, .value(1)])
        #expect(staying.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        _ = connection
    }

    @Test func aSubscriberAfterTheCompletionReceivesItAtOnce() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let connection = multicast.connect()
        upstream.send(completion: .finished)
        let late = TestSubscriber<Int, Never>(initialDemand: .none)
        multicast.subscribe(late)
        #expect(late.events == [.subscription, .completion(.finished)])
        _ = connection
    }

    @Test func theSubscriptionDescribesItselfAsMulticast() throws {
        let multicast = PassthroughSubject<Int, Never>().multicast(subject: PassthroughSubject<Int, Never>())
        let subscriber = TestSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Multicast")
        #expect((subscription as? any CustomReflectable)?.customMirror.children.isEmpty == true)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "Multicast")
    }

    // MARK: Concurrency and memory

    @Test func subscribersAttachingFromManyThreadsAllReceiveTheValues() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        let subscribers = (0..<8).map { _ in TestSubscriber<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: subscribers.count) { index in
            multicast.subscribe(subscribers[index])
        }
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(completion: .finished)
        for subscriber in subscribers {
            #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        }
        _ = connection
    }

    @Test func everythingIsReleasedAfterCancelling() throws {
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakMulticast: Publishers.Multicast<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var connection: (any Cancellable)?
        do {
            let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
            let subscriber = TestSubscriber<Int, Never>()
            weakMulticast = multicast
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
            connection = multicast.connect()
            upstream.send(1)
            #expect(subscriber.values == [1])
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakMulticast == nil)
        connection?.cancel()
        connection = nil
    }

    @Test func aCompletedSubscriberIsReleased() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, Never>())
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let connection = multicast.connect()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
        }
        #expect(weakSubscriber != nil)
        upstream.send(completion: .finished)
        #expect(weakSubscriber == nil)
        _ = connection
    }
}
