import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CurrentValueSubjectTests {
    @Test func newSubscriberGetsTheCurrentValueThenUpdates() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.value = 2
        subject.send(3)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subject.value == 3)
    }

    @Test func currentValueWaitsForDemand() {
        let subject = CurrentValueSubject<String, Never>("a")
        let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.values == [])
        subject.value = "b"
        subscriber.request(.max(1))
        #expect(subscriber.values == ["b"])
        subject.value = "c"
        subject.value = "d"
        #expect(subscriber.values == ["b"])
        subscriber.request(.max(2))
        #expect(subscriber.values == ["b", "d"])
        subject.value = "e"
        #expect(subscriber.values == ["b", "d", "e"])
    }

    @Test func completionStopsUpdatesButKeepsTheValue() {
        let subject = CurrentValueSubject<Int, TestError>(0)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(completion: .failure(TestError(code: 2)))
        subject.send(5)
        #expect(subject.value == 0)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.failure(TestError(code: 2)))])
        let late = TestSubscriber<Int, TestError>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.failure(TestError(code: 2)))])
    }

    @Test func settingTheValueAfterCompletionStoresItWithoutSending() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 42
        #expect(subject.value == 42)
        subject.send(7)
        #expect(subject.value == 42)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func asksUpstreamAtOnceAndCancelsItWhenReleased() {
        let upstream = RecordingSubscription()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            subject.send(subscription: upstream)
            subject.send(completion: .finished)
            subject.send(subscription: upstream)
            #expect(upstream.requests == [.unlimited, .unlimited])
            #expect(upstream.cancelCount == 0)
        }
        #expect(upstream.cancelCount == 2)
    }

    @Test func settingValueInsideASinkIsQueuedNotRecursive() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [Int] = []
        let other = TestSubscriber<Int, Never>()
        let cancellable = subject.sink { value in
            log.append(value)
            if value < 3 { subject.value = value + 1 }
            log.append(-value)
        }
        subject.subscribe(other)
        #expect(log == [0, -0, 1, -1, 2, -2, 3, -3])
        #expect(other.values == [3])
        #expect(subject.value == 3)
        _ = cancellable
    }

    @Test func optionalOutputNilIsAValue() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let subscriber = TestSubscriber<Int?, Never>()
        subject.subscribe(subscriber)
        subject.value = 1
        #expect(subscriber.values == [nil, 1])
    }

    @Test func subscriptionDescription() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect((subscriber.subscription as? any CustomStringConvertible)?.description == "CurrentValueSubject")
    }

    @Test func subscriptionReflectsItsSubjectUntilCompletion() throws {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func shown(_ label: String) -> String? {
            Mirror(reflecting: subscription).children.first { $0.label == label }.map { String(describing: $0.value) }
        }
        #expect(
            Mirror(reflecting: subscription).children.map(\.label) == ["parent", "downstream", "demand", "subject"])
        #expect(shown("parent")?.contains("CurrentValueSubject<Swift.Int, Swift.Never>") == true)
        #expect(shown("subject")?.contains("CurrentValueSubject<Swift.Int, Swift.Never>") == true)
        subject.send(completion: .finished)
        #expect(shown("parent") == "nil")
        #expect(shown("subject") == "nil")
    }

    @Test func concurrentWritersAndReaders() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 1...250 {
                subject.value = thread * 1000 + index
                _ = subject.value
            }
        }
        let values = subscriber.values
        #expect(values.count == 1001)
        #expect(values.last == subject.value)
        for thread in 0..<4 {
            #expect(values.filter { $0 / 1000 == thread && $0 != 0 } == (1...250).map { thread * 1000 + $0 })
        }
    }

    @Test func releasedWhenNothingHoldsIt() {
        weak var weakSubject: CurrentValueSubject<Int, Never>?
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            weakSubject = subject
            subject.send(1)
        }
        #expect(weakSubject == nil)
    }

    @Test func aSubscriptionKeepsTheSubjectAliveUntilCancelled() {
        weak var weakSubject: CurrentValueSubject<Int, Never>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            weakSubject = subject
            subject.subscribe(subscriber)
        }
        #expect(weakSubject != nil, "as in Combine, the subscription holds the subject")
        weakSubject?.send(1)
        #expect(subscriber.values == [0, 1])
        subscriber.cancel()
        #expect(weakSubject == nil)
    }

    @Test func aSubscriptionKeepsTheSubjectAliveUntilTheCompletionIsDelivered() {
        weak var weakSubject: CurrentValueSubject<Int, Never>?
        weak var weakSink: Subscribers.Sink<Int, Never>?
        var received: [String] = []
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in received.append("finished") }, receiveValue: { received.append("\($0)") }
            )
            weakSubject = subject
            weakSink = sink
            subject.subscribe(sink)
        }
        #expect(weakSubject != nil && weakSink != nil, "only the subscription holds them")
        weakSubject?.send(completion: .finished)
        #expect(received == ["0", "finished"])
        #expect(weakSubject == nil)
        #expect(weakSink == nil, "the completion lets go of the subscriber")
    }
}
