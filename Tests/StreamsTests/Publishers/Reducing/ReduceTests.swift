import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct ReduceTests {
    // MARK: Values and completion

    @Test func foldsEveryValueAndPublishesOnFinish() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3, 4, 5].publisher.reduce(0, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(15), .completion(.finished)])
    }

    @Test func passesPartialResultThenElementInOrder() {
        let subscriber = TestSubscriber<[String], Never>()
        ["a", "b", "c"].publisher.reduce(["start"]) { $0 + [$1] }.subscribe(subscriber)
        #expect(subscriber.values == [["start", "a", "b", "c"]])
    }

    @Test func emptyUpstreamPublishesInitialResult() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().reduce(7, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func tryReduceFoldsLikeReduce() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 2, 3, 4].publisher.tryReduce(1, *).subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .value(24), .completion(.finished)])
    }

    // MARK: Demand

    @Test func sendsSubscriptionDownstreamThenRequestsUnlimited() {
        let upstream = SelectionUpstream<Int, Never>()
        let probe = SubscriptionProbe<Int, Never>(watching: upstream.subscription)
        upstream.reduce(0, +).subscribe(probe)
        #expect(probe.arrival?.description == "Reduce")
        #expect(probe.arrival?.upstreamEvents == [])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func holdsResultUntilDownstreamAsks() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.reduce(1, *).subscribe(subscriber)
        for value in 1...5 { #expect(upstream.send(value) == Subscribers.Demand.none) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let subscription = try #require(subscriber.subscription)
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(120), .completion(.finished)])
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(120), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func demandGivenEarlyIsUsedWhenUpstreamFinishes() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(10)
        upstream.send(20)
        #expect(subscriber.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(30), .completion(.finished)])
    }

    @Test func ignoresEverythingAfterFinishing() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Failure

    @Test func upstreamFailureArrivesAtOnceWithoutResult() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>(initialDemand: .none)
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func tryReducePassesUpstreamFailureOnAsAnyError() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryReduce(0, +).subscribe(subscriber)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
    }

    @Test func tryReduceThrowCancelsUpstreamThenFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let calls = Mutex(0)
        let upstreamAtFailure = Mutex<[SelectionUpstreamEvent]>([])
        let failures = Mutex<[SelectionTestError]>([])
        let subscriber = AnySubscriber<Int, any Error>(
            receiveSubscription: { _ in },
            receiveValue: { _ in .none },
            receiveCompletion: { completion in
                upstreamAtFailure.withLock { $0 = upstream.events }
                if case .failure(let error) = completion {
                    failures.withLock { $0.append(error as? SelectionTestError ?? .foreign) }
                }
            })
        upstream.tryReduce(0) { partial, next in
            calls.withLock { $0 += 1 }
            if next == 3 { throw SelectionTestError.oops }
            return partial + next
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(upstream.send(4) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(failures.withLock { $0 } == [.oops])
        #expect(upstreamAtFailure.withLock { $0 } == [.requested(.unlimited), .cancelled])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func tryReduceFailsWithoutWaitingForDemand() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        [1, 2, 3].publisher.tryReduce(0) { _, _ in throw SelectionTestError.other }.subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndSilencesTheStream() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.reduce(0, +).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscription.request(.max(1))
        subscription.cancel()
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelWhileResultWaitsDropsIt() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.reduce(0, +).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(5)
        upstream.send(completion: .finished)
        subscription.cancel()
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func cancelInsideValueStillFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [1, 2].publisher.reduce(0, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func requestInsideSubscriptionDeliversAtFinish() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = AnySubscriberRecorder<Int>()
        upstream.reduce(100, -).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [99])
        #expect(subscriber.finished)
    }

    @Test func secondSubscriptionIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.reduce(0, +).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(upstream.events == [.requested(.unlimited)])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func cancelBeforeTheSubscriptionArrivesIsIgnored() {
        checkReduceLikeCombineDetails { $0.reduce(0, +) }
        checkReduceLikeCombineDetails { $0.tryReduce(0, +) }
    }

    @Test func earlyCancelStillFoldsAndPublishes() throws {
        let upstream = HeldSubscriberUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.reduce(10, +).subscribe(subscriber)
        try #require(upstream.inner).cancel()
        let subscription = SelectionSubscription()
        upstream.send(subscription: subscription)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(13), .completion(.finished)])
        #expect(subscription.events == [.requested(.unlimited)])
    }

    // MARK: Lifetime

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.reduce(0, +).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        weak var weakInner: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, any Error>()
            subject.tryReduce(0, +).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(completion: .finished)
            #expect(subscriber.values == [1])
        }
        #expect(weakInner == nil)
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let reducing = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).reduce(0, +).subscribe(reducing)
        let reduce = try #require(reducing.subscription)
        #expect(String(describing: reduce) == "Reduce")
        #expect((reduce as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Reduce")
        #expect(Mirror(reflecting: reduce).children.contains { $0.label == "downstream" })

        let trying = TestSubscriber<Int, any Error>()
        Empty<Int, Never>(completeImmediately: false).tryReduce(0, +).subscribe(trying)
        #expect(String(describing: try #require(trying.subscription)) == "TryReduce")
    }

    @Test func mirrorShowsInitialThenTheResultOnceKnown() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.reduce(7, +).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func shown(_ label: String) -> String {
            String(describing: Mirror(reflecting: subscription).descendant(label) ?? "missing")
        }
        let labels = Mirror(reflecting: subscription).children.map(\.label)
        #expect(labels == ["downstream", "result", "initial", "status"])
        #expect(shown("result") == "Optional(7)")
        #expect(shown("initial") == "Optional(7)")
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(shown("result") == "Optional(10)")
        #expect(shown("initial") == "Optional(7)")
        #expect(shown("status") == "terminal")
    }

    // MARK: Concurrency

    @Test func sumsValuesSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.reduce(0, +).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 1...1_000 { subject.send(value * (thread + 1)) }
        }
        subject.send(completion: .finished)
        #expect(subscriber.values == [500_500 * 36])
    }

    @Test func readingTheMirrorWhileValuesArriveIsSafe() throws {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.reduce(0, +).subscribe(subscriber)
        let subscription = UncheckedBox(try #require(subscriber.subscription))
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 {
                for value in 1...1_000 { subject.send(value) }
                subject.send(completion: .finished)
            } else {
                for _ in 0..<200 {
                    _ = String(describing: Mirror(reflecting: subscription.value).descendant("result"))
                }
            }
        }
        #expect(subscriber.values == [500_500])
        #expect(Mirror(reflecting: subscription.value).descendant("result") as? Int == 500_500)
    }

    @Test func racingRequestAndFinishDeliverExactlyOnce() {
        for _ in 0..<200 {
            let upstream = SelectionUpstream<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            upstream.reduce(0, +).subscribe(subscriber)
            upstream.send(4)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch index {
                case 0: upstream.send(completion: .finished)
                default: subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
        }
    }

    // MARK: Misuse

    @Test func requestingZeroIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Empty<Int, Never>(completeImmediately: false).reduce(0, +).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }
}

/// A subscriber that asks for one value from inside `receive(subscription:)` and records the rest.
private final class AnySubscriberRecorder<Input>: Subscriber, @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.
    private let lock = Mutex<Void>(())
    private var received: [Input] = []
    private var didFinish = false

    var values: [Input] { lock.withLock { _ in received } }
    var finished: Bool { lock.withLock { _ in didFinish } }

    func receive(subscription: any Subscription) {
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { _ in received.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { _ in didFinish = true }
    }
}
