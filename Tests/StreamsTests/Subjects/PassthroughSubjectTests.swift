import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct PassthroughSubjectTests {
    @Test func deliversValuesThenCompletionInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.send(0)
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func deliversFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(TestError(code: 3)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(TestError(code: 3)))])
    }

    @Test func voidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let cancellable = subject.sink { count += 1 }
        subject.send()
        subject.send()
        #expect(count == 2)
        _ = cancellable
    }

    @Test func broadcastsInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let first = subject.sink { log.append("a\($0)") }
        let second = subject.sink { log.append("b\($0)") }
        let third = subject.sink { log.append("c\($0)") }
        subject.send(1)
        second.cancel()
        subject.send(2)
        #expect(log == ["a1", "b1", "c1", "a2", "c2"])
        _ = (first, third)
    }

    @Test func honoursBoundedDemandAndDropsWhatIsNotRequested() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        subject.send(6)
        subject.send(7)
        #expect(subscriber.values == [1, 2, 6])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 < 3 ? .max(1) : .none }
        subject.subscribe(subscriber)
        for value in 1...6 { subject.send(value) }
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func noValuesAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func lateSubscriberGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError(code: 1)))
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(TestError(code: 1)))])
    }

    @Test func reentrantSendsKeepOrderForEverySubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        var first: [Int] = []
        var second: [Int] = []
        let a = subject.sink { value in
            first.append(value)
            if value < 3 { subject.send(value + 1) }
        }
        let b = subject.sink { second.append($0) }
        subject.send(1)
        #expect(first == [1, 2, 3])
        #expect(second == [1, 2, 3])
        _ = (a, b)
    }

    @Test func reentrantCancelStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        subject.subscribe(subscriber)
        for value in 1...4 { subject.send(value) }
        #expect(subscriber.values == [1, 2])
    }

    @Test func reentrantRequestAddsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        subject.subscribe(subscriber)
        for value in 1...4 { subject.send(value) }
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func reentrantCompletionArrivesAfterTheValueInProgress() {
        let subject = PassthroughSubject<Int, Never>()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        first.onReceiveValue { _ in subject.send(completion: .finished) }
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        subject.send(2)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func subscriberAddedDuringDeliveryGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        let late = TestSubscriber<Int, Never>()
        let early = TestSubscriber<Int, Never>()
        early.onReceiveValue { if $0 == 1 { subject.subscribe(late) } }
        subject.subscribe(early)
        subject.send(1)
        subject.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func subscriberCancelledByAnotherDuringDeliveryMissesTheValueInProgress() {
        let subject = PassthroughSubject<Int, Never>()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        let third = TestSubscriber<Int, Never>()
        first.onReceiveValue { if $0 == 2 { second.cancel() } }
        subject.subscribe(first)
        subject.subscribe(second)
        subject.subscribe(third)
        for value in 1...3 { subject.send(value) }
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [1])
        #expect(third.values == [1, 2, 3])
    }

    @Test func subscriberCancellingItselfDuringDeliveryIsReleased() {
        let subject = PassthroughSubject<Int, Never>()
        let observer = TestSubscriber<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subscriber.onReceiveValue { [unowned subscriber] _ in subscriber.cancel() }
            subject.subscribe(subscriber)
        }
        subject.subscribe(observer)
        subject.send(1)
        #expect(weakSubscriber == nil)
        subject.send(2)
        #expect(observer.values == [1, 2])
    }

    @Test func subscriberAttachedAndCancelledDuringOneDeliveryGetsNothingAndIsReleased() {
        let subject = PassthroughSubject<Int, Never>()
        let host = TestSubscriber<Int, Never>()
        weak var weakGuest: TestSubscriber<Int, Never>?
        host.onReceiveValue { value in
            guard value == 1 else { return }
            let guest = TestSubscriber<Int, Never>()
            weakGuest = guest
            subject.subscribe(guest)
            subject.send(10)
            guest.cancel()
        }
        subject.subscribe(host)
        subject.send(1)
        subject.send(2)
        #expect(host.values == [1, 10, 2])
        #expect(weakGuest == nil)
    }

    @Test func subscriberAttachedDuringDeliveryGetsACompletionSentAfterIt() {
        let subject = PassthroughSubject<Int, Never>()
        let host = TestSubscriber<Int, Never>()
        let guest = TestSubscriber<Int, Never>()
        host.onReceiveValue { value in
            guard value == 1 else { return }
            subject.subscribe(guest)
            subject.send(2)
            subject.send(completion: .finished)
        }
        subject.subscribe(host)
        subject.send(1)
        #expect(host.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(guest.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func subscriberCancelledFromAnotherThreadDuringDeliveryIsReleasedWhenDeliveryEnds() {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        let blocker = TestSubscriber<Int, Never>()
        blocker.onReceiveValue { value in
            guard value == 1 else { return }
            entered.signal()
            resume.wait()
        }
        subject.subscribe(blocker)
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            DispatchQueue.global().async {
                subject.send(1)
                delivered.signal()
            }
            entered.wait()
            subscriber.cancel()
        }
        #expect(weakSubscriber != nil)
        resume.signal()
        delivered.wait()
        #expect(weakSubscriber == nil)
        subject.send(2)
        #expect(blocker.values == [1, 2])
    }

    @Test func releasesSubscribersOnCancelAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
        }
        #expect(weakSubscriber != nil)
        subject.send(completion: .finished)
        #expect(weakSubscriber == nil)
    }

    @Test func subjectIsReleasedWithItsSubscribersCancelled() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var cancellable: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            cancellable = subject.sink { _ in }
        }
        cancellable?.cancel()
        #expect(weakSubject == nil)
    }

    @Test func storesAndCancelsUpstreamSubscriptions() {
        let upstream = RecordingSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
            subject.send(subscription: upstream)
            #expect(upstream.requests == [])
            #expect(upstream.cancelCount == 0)
        }
        #expect(upstream.cancelCount == 2)
    }

    @Test func asksUpstreamForValuesOnceASubscriberRequestsSome() {
        let early = RecordingSubscription()
        let subject = PassthroughSubject<Int, Never>()
        subject.send(subscription: early)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        // A subscriber alone is not demand.
        #expect(early.requests == [])
        subscriber.request(.max(1))
        #expect(early.requests == [.unlimited])
        subscriber.request(.max(2))
        #expect(early.requests == [.unlimited])
        // Later upstream subscriptions are asked at once, even after the subscriber has gone.
        subscriber.cancel()
        let late = RecordingSubscription()
        subject.send(subscription: late)
        #expect(late.requests == [.unlimited])
        #expect(early.requests == [.unlimited])
    }

    @Test func keepsUpstreamSubscriptionsSentAfterCompletion() {
        let upstream = RecordingSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(completion: .finished)
            subject.send(subscription: upstream)
            #expect(upstream.requests == [])
            #expect(upstream.cancelCount == 0)
        }
        #expect(upstream.cancelCount == 1)
    }

    @Test func subscriptionReflection() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        let subscription = subscriber.subscription!
        #expect((subscription as? any CustomStringConvertible)?.description == "PassthroughSubject")
        let mirror = (subscription as? any CustomReflectable)?.customMirror
        #expect(mirror?.children.map(\.label) == ["parent", "downstream", "demand", "subject"])
        let children = mirror.map { Array($0.children) } ?? []
        #expect(children.dropFirst(2).first?.value as? Subscribers.Demand == .max(3))
        #expect(children.dropFirst().first?.value as? TestSubscriber<Int, Never> === subscriber)
    }

    @Test func subscriptionReflectsItsSubjectUntilCancelled() throws {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func shown(_ label: String) -> String? {
            Mirror(reflecting: subscription).children.first { $0.label == label }.map { String(describing: $0.value) }
        }
        #expect(shown("parent")?.contains("PassthroughSubject<Swift.Int, Swift.Never>") == true)
        #expect(shown("subject")?.contains("PassthroughSubject<Swift.Int, Swift.Never>") == true)
        subscription.cancel()
        #expect(shown("parent") == "nil")
        #expect(shown("subject") == "nil")
    }

    @Test func twentyThousandSubscribersSubscribeReceiveAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Atomic(0)
        var cancellables: [AnyCancellable] = []
        for _ in 0..<20_000 {
            cancellables.append(subject.sink { received.add($0, ordering: .relaxed) })
        }
        subject.send(1)
        #expect(received.load(ordering: .relaxed) == 20_000)
        // Cancel every other one, then the rest from the back.
        for index in stride(from: 0, to: 20_000, by: 2) { cancellables[index].cancel() }
        subject.send(1)
        #expect(received.load(ordering: .relaxed) == 30_000)
        for index in stride(from: 19_999, through: 1, by: -2) { cancellables[index].cancel() }
        subject.send(1)
        #expect(received.load(ordering: .relaxed) == 30_000)
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        subject.send(9)
        #expect(late.values == [9])
    }

    @Test func upstreamSentWhileTheFirstDemandArrivesIsAskedExactlyOnce() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            let upstreams = (0..<8).map { _ in CountingSubscription() }
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                if worker == 0 {
                    subscriber.request(.max(1))
                } else {
                    for upstream in upstreams[(worker - 1) * 4..<worker * 4] { subject.send(subscription: upstream) }
                }
            }
            #expect(upstreams.map { $0.unlimitedRequests.load(ordering: .acquiring) } == Array(repeating: 1, count: 8))
        }
    }

    @Test func concurrentSendersAreSerializedAndKeepPerThreadOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        let threads = 4
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread { subject.send(thread * 10_000 + index) }
        }
        let reference = subscribers[0].values
        #expect(reference.count == threads * perThread)
        for subscriber in subscribers {
            let values = subscriber.values
            #expect(values == reference)
            for thread in 0..<threads {
                let mine = values.filter { $0 / 10_000 == thread }
                #expect(mine == (0..<perThread).map { thread * 10_000 + $0 })
            }
        }
    }

    @Test func concurrentSubscribeCancelAndSend() {
        let subject = PassthroughSubject<Int, Never>()
        let steady = TestSubscriber<Int, Never>()
        subject.subscribe(steady)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<300 {
                if worker == 0 {
                    subject.send(index)
                } else {
                    // No demand until the request for one value: a subscriber asking for one gets
                    // at most that one, however long this thread is held up before it cancels.
                    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
                    subject.subscribe(subscriber)
                    subscriber.request(.max(1))
                    subscriber.cancel()
                    #expect(subscriber.values.count <= 1)
                }
            }
        }
        #expect(steady.values == Array(0..<300))
    }

    @Test func subscribersCancelledWhileAnotherThreadSendsAreAllReleased() {
        let subject = PassthroughSubject<Int, Never>()
        let steady = TestSubscriber<Int, Never>()
        subject.subscribe(steady)
        let liveSubscribers = LiveCount()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<300 {
                if worker == 0 {
                    subject.send(index)
                    continue
                }
                let subscriber = LifetimeCountingSubscriber(counter: liveSubscribers)
                subject.subscribe(subscriber)
                subscriber.cancel()
            }
        }
        #expect(steady.values == Array(0..<300))
        #expect(liveSubscribers.value.load(ordering: .acquiring) == 0)
    }

    @Test func zeroDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    // MARK: Lifetime, as in Combine

    @Test func aSubscriptionKeepsTheSubjectAliveUntilCancelled() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            subject.subscribe(subscriber)
        }
        #expect(weakSubject != nil, "the subscription holds the subject")
        weakSubject?.send(7)
        #expect(subscriber.values == [7])
        subscriber.cancel()
        #expect(weakSubject == nil)
    }

    @Test func aSubscriptionKeepsTheSubjectAliveUntilTheFailureIsDelivered() {
        weak var weakSubject: PassthroughSubject<Int, TestError>?
        weak var weakSink: Subscribers.Sink<Int, TestError>?
        var received: [String] = []
        do {
            let subject = PassthroughSubject<Int, TestError>()
            let sink = Subscribers.Sink<Int, TestError>(
                receiveCompletion: { received.append($0 == .finished ? "finished" : "failed") },
                receiveValue: { received.append("\($0)") })
            weakSubject = subject
            weakSink = sink
            subject.subscribe(sink)
        }
        weakSubject?.send(1)
        weakSubject?.send(completion: .failure(TestError()))
        #expect(received == ["1", "failed"])
        #expect(weakSubject == nil)
        #expect(weakSink == nil)
    }

    @Test func withoutSubscribersTheSubjectIsReleasedAndCancelsItsUpstream() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        var cancelled = false
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            _ = upstream.handleEvents(receiveCancel: { cancelled = true }).subscribe(subject)
        }
        #expect(weakSubject == nil)
        #expect(cancelled)
    }
}

/// How many objects that count themselves are alive.
private final class LiveCount: Sendable {
    let value = Atomic<Int>(0)
}

/// A subscription that counts, from any thread, the unlimited requests it receives.
private final class CountingSubscription: Subscription, Sendable {
    let unlimitedRequests = Atomic<Int>(0)

    func request(_ demand: Subscribers.Demand) {
        if demand == .unlimited { unlimitedRequests.add(1, ordering: .relaxed) }
    }

    func cancel() {}
}

/// A subscriber that counts itself in `counter` while it is alive.
// The stored subscription is read and written only with `lock` held.
private final class LifetimeCountingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let counter: LiveCount
    private let lock = Mutex<Void>(())
    private var subscription: (any Subscription)?

    init(counter: LiveCount) {
        self.counter = counter
        counter.value.add(1, ordering: .relaxed)
    }

    deinit { counter.value.subtract(1, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        lock.withLock { _ in self.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Never>) {}

    func cancel() {
        let subscription = lock.withLock { _ in
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }
}
