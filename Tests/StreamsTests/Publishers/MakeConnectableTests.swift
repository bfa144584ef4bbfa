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
}
