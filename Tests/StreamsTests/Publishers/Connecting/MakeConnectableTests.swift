import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct MakeConnectableTests {
    @Test func everySubscriberAttachedBeforeConnectingReceivesEverything() {
        let connectable = Just("Sent").makeConnectable()
        let first = TestSubscriber<String, Never>()
        let second = TestSubscriber<String, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        #expect(first.events == [.subscription])
        let connection = connectable.connect()
        for subscriber in [first, second] {
            #expect(subscriber.events == [.subscription, .value("Sent"), .completion(.finished)])
        }
        _ = connection
    }

    @Test func theUpstreamIsAskedForEverythingOnlyOnConnect() {
        let upstream = PacingUpstream<Int, Never>()
        let connectable = upstream.makeConnectable()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        connectable.subscribe(subscriber)
        #expect(upstream.events == [])
        let connection = connectable.connect()
        #expect(upstream.events == [.requested(.unlimited)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [1])
        connection.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func disconnectingAndConnectingAgain() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let subscriber = TestSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        upstream.send(0)
        var connection = connectable.connect()
        upstream.send(1)
        connection.cancel()
        upstream.send(2)
        connection = connectable.connect()
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .completion(.finished)])
    }

    @Test func copiesShareTheirSubscribers() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let copy = connectable
        let subscriber = TestSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        let connection = copy.connect()
        upstream.send(8)
        #expect(subscriber.values == [8])
        _ = connection
    }

    @Test func autoconnectConnectsOnTheFirstSubscriber() {
        let upstream = PacingUpstream<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        let subscriber = TestSubscriber<Int, Never>()
        auto.subscribe(subscriber)
        #expect(upstream.events == [.requested(.unlimited)])
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [1])
    }

    /// `makeConnectable()` exists only for publishers that cannot fail (as in Combine), so the end of
    /// the stream is its only completion.
    @Test func theCompletionReachesEverySubscriberAndNothingFollowsIt() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        let connection = connectable.connect()
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        let late = TestSubscriber<Int, Never>()
        connectable.subscribe(late)
        for subscriber in [first, second] {
            #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        }
        #expect(late.events == [.subscription, .completion(.finished)])
        _ = connection
    }

    @Test func aSubscriberThatCancelsLeavesTheOthersAndTheConnection() {
        let upstream = PacingUpstream<Int, Never>()
        let connectable = upstream.makeConnectable()
        let leaving = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        connectable.subscribe(leaving)
        connectable.subscribe(staying)
        let connection = connectable.connect()
        upstream.send(1)
        leaving.cancel()
        upstream.send(2)
        #expect(leaving.events == [.subscription, .value(1)])
        #expect(staying.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.requested(.unlimited)])
        connection.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func subscribersFromManyThreadsSeeTheSameValuesInTheSameOrder() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let subscribers = (0..<8).map { _ in TestSubscriber<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: subscribers.count) { index in
            connectable.subscribe(subscribers[index])
        }
        let connection = connectable.connect()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<250 { upstream.send(thread * 250 + value) }
        }
        upstream.send(completion: .finished)
        let first = subscribers[0].values
        #expect(Set(first) == Set(0..<1_000))
        for subscriber in subscribers {
            #expect(subscriber.values == first)
            #expect(subscriber.completion == .finished)
        }
        _ = connection
    }

    @Test func nothingOutlivesACancelledConnectionOnceItsSubscribersAreGone() {
        weak var weakUpstream: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let upstream = PassthroughSubject<Int, Never>()
            weakUpstream = upstream
            let connectable = upstream.makeConnectable()
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            connectable.subscribe(subscriber)
            let connection = connectable.connect()
            upstream.send(1)
            #expect(subscriber.values == [1])
            connection.cancel()
            subscriber.cancel()
        }
        #expect(weakUpstream == nil)
        #expect(weakSubscriber == nil)
    }
}
