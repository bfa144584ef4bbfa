import Streams
import StreamsTesting
import Synchronization
import Testing

/// Collects what the closures saw, in order.
private final class EventLog: @unchecked Sendable {
    // @unchecked: `lock` guards `entries`.
    private let lock = Mutex<Void>(())
    private var entries: [String] = []

    func add(_ entry: String) {
        lock.withLock { _ in entries.append(entry) }
    }

    var all: [String] { lock.withLock { _ in entries } }
}

extension Publisher {
    /// Logs every event of `handleEvents` into `log`.
    fileprivate func logged(_ log: EventLog) -> Publishers.HandleEvents<Self> {
        handleEvents(
            receiveSubscription: { log.add("subscription \($0)") },
            receiveOutput: { log.add("output \($0)") },
            receiveCompletion: { log.add("completion \($0)") },
            receiveCancel: { log.add("cancel") },
            receiveRequest: { log.add("request \($0)") })
    }
}

@Suite struct HandleEventsTests {
    @Test func closuresSeeEveryEventInOrder() {
        let log = EventLog()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.logged(log).subscribe(subscriber)
        subscriber.request(.max(5))
        #expect(
            log.all == [
                "subscription [1, 2, 3]", "request max(2)", "output 1", "output 2", "request max(5)", "output 3",
                "completion finished",
            ])
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func demandReturnedFromAValueIsReportedWhenNotZero() {
        let log = EventLog()
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 2 ? .max(3) : .none }
        upstream.logged(log).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == .max(3))
        #expect(
            log.all == ["subscription FlowSubscription", "request max(1)", "output 1", "output 2", "request max(3)"])
        #expect(upstream.subscription?.history == [.requested(.max(1))])
    }

    @Test func failureIsReported() {
        let log = EventLog()
        let subscriber = TestSubscriber<Int, FlowError>()
        Fail<Int, FlowError>(error: FlowError(3)).logged(log).subscribe(subscriber)
        #expect(log.all == ["subscription Empty", "request unlimited", "completion failure(FlowError(3))"])
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(3)))])
    }

    /// The first cancel is reported and releases the closures; like Combine, later events are no
    /// longer reported but still pass through.
    @Test func cancelIsReportedOnceAndLaterEventsPassUnreported() {
        let log = EventLog()
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.logged(log).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(log.all == ["subscription FlowSubscription", "request unlimited", "cancel"])
        #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    /// The first completion is reported and releases the closures; like Combine, later events are
    /// no longer reported but still pass through.
    @Test func nothingIsReportedAfterCompletion() {
        let log = EventLog()
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.logged(log).subscribe(subscriber)
        let subscription = subscriber.subscription
        upstream.send(completion: .finished)
        subscription?.request(.max(1))
        subscription?.cancel()
        upstream.send(completion: .finished)
        #expect(log.all == ["subscription FlowSubscription", "request max(1)", "completion finished"])
        #expect(subscriber.events == [.subscription, .completion(.finished), .completion(.finished)])
    }

    @Test func aSecondSubscriptionIsReportedThenCancelled() {
        let log = EventLog()
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.logged(log).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(upstream.events == [.requested(.max(2))])
        #expect(log.all == ["subscription \(upstream.subscription)", "request max(2)", "subscription \(second)"])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func eventsBeforeTheSubscriptionAreReportedAndPassedOn() throws {
        let log = EventLog()
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(3))
        upstream.logged(log).subscribe(subscriber)
        #expect(upstream.send(5) == .max(3))
        let inner = try #require(upstream.innerSubscription)
        inner.request(.max(2))
        inner.cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.requested(.max(1))])
        #expect(
            log.all == [
                "output 5", "request max(3)", "request max(2)", "cancel", "subscription \(late)", "request max(1)",
            ])
        #expect(subscriber.events == [.value(5), .subscription])
    }

    @Test func reentrantRequestFromReceiveValueIsReported() {
        let log = EventLog()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { value in
            if value < 3 { subscriber.request(.max(1)) }
        }
        [1, 2, 3, 4].publisher.logged(log).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(
            log.all == [
                "subscription [1, 2, 3, 4]", "request max(1)", "output 1", "request max(1)", "output 2",
                "request max(1)",
                "output 3",
            ])
    }

    @Test func propertiesCanBeChangedBeforeSubscribing() {
        var outputs: [Int] = []
        var publisher = [1, 2].publisher.handleEvents()
        #expect(publisher.receiveOutput == nil)
        publisher.receiveOutput = { outputs.append($0 * 10) }
        let subscriber = TestSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        #expect(outputs == [10, 20])
        #expect(subscriber.values == [1, 2])
    }

    @Test func describesItselfAsHandleEvents() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.handleEvents().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "HandleEvents")
        #expect(upstream.subscriberDescription == "HandleEvents")
    }

    @Test func releasesClosuresAndSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: FlowToken?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let token = FlowToken()
            weakToken = token
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} }).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesClosuresOnCompletionEvenWhileTheSubscriptionIsHeld() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: FlowToken?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let token = FlowToken()
            weakToken = token
            subject.handleEvents(receiveCancel: { withExtendedLifetime(token) {} }).subscribe(subscriber)
        }
        let subscription = subscriber.subscription
        #expect(weakToken != nil)
        subject.send(completion: .finished)
        #expect(weakToken == nil)
        withExtendedLifetime(subscription) {}
    }
}
