import Streams
import StreamsTesting
import Testing

@Suite struct SubscribeSubjectTests {
    @Test func forwardsValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = [1, 2, 3].publisher.subscribe(subject)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        _ = connection
    }

    @Test func aCompletionBeforeTheSubscriptionIsIgnored() {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        // The connection still takes its subscription and forwards what follows.
        let subscription = PacingSubscription()
        upstream.send(subscription: subscription)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
        #expect(subscription.events == [.requested(.unlimited)])
        _ = connection
    }

    @Test func cancellingTheConnectionStopsForwarding() {
        let upstream = PassthroughSubject<Int, Never>()
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        upstream.send(1)
        connection.cancel()
        upstream.send(2)
        #expect(subscriber.values == [0, 1])
    }

    @Test func releasingTheSubjectEndsTheConnection() {
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            connection = upstream.subscribe(subject)
        }
        #expect(weakSubject == nil)
        upstream.send(1)
        connection = nil
        #expect(connection == nil)
    }
}
