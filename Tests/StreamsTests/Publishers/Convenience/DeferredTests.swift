import Streams
import StreamsTesting
import Testing

@Suite struct DeferredTests {
    @Test func createsThePublisherOnlyWhenSubscribed() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        #expect(created == 0)
        let first = TestSubscriber<Int, Never>()
        deferred.subscribe(first)
        #expect(created == 1)
        let second = TestSubscriber<Int, Never>()
        deferred.subscribe(second)
        #expect(created == 2)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func subscriberTalksToTheCreatedPublisherDirectly() throws {
        let deferred = Deferred { [1, 2, 3].publisher }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        deferred.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "[1, 2, 3]")
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func passesFailuresThrough() {
        let deferred = Deferred { Fail<String, CreateTestError>(error: CreateTestError(code: 2)) }
        let subscriber = TestSubscriber<String, CreateTestError>()
        deferred.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(CreateTestError(code: 2)))])
    }

    @Test func wrappingAFutureRunsItsWorkPerSubscriber() {
        var runs = 0
        let deferred = Deferred {
            Future<Int, Never> { promise in
                runs += 1
                promise(.success(runs * 10))
            }
        }
        #expect(runs == 0)
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        deferred.subscribe(first)
        deferred.subscribe(second)
        #expect(runs == 2)
        #expect(first.values == [10])
        #expect(second.values == [20])
    }

    @Test func cancelReachesTheCreatedPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        Deferred { subject }.subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        subject.send(2)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func keepsTheClosure() {
        let deferred = Deferred { Just("x") }
        #expect(deferred.createPublisher().output == "x")
    }
}
