import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Holds a future's promise so a test can settle the future later, from any thread.
// @unchecked: `stored` is guarded by `lock`.
private final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var stored: Future<Output, Failure>.Promise?

    func keep(_ promise: @escaping Future<Output, Failure>.Promise) {
        lock.withLock { _ in stored = promise }
    }

    func callAsFunction(_ result: Result<Output, Failure>) {
        let promise = lock.withLock { _ in stored }
        promise?(result)
    }
}

@Suite(.timeLimit(.minutes(3))) struct FutureTests {
    typealias Sut = Future<Int, CreateTestError>

    @Test func runsItsClosureAtOnce() {
        var ran = 0
        _ = Sut { _ in ran += 1 }
        #expect(ran == 1)
    }

    @Test func deliversAValueSettledBeforeSubscription() {
        let future = Sut { $0(.success(42)) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func deliversAValueSettledAfterSubscription() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        promise(.success(5))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func waitsForDemandBeforeSendingTheValue() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(subscriber)
        promise(.success(8))
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(8), .completion(.finished)])
    }

    @Test func valueSettledEarlierStillWaitsForDemand() {
        let future = Sut { $0(.success(1)) }
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func failureArrivesWithoutDemand() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let early = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(early)
        promise(.failure(CreateTestError(code: 4)))
        #expect(early.events == [.subscription, .completion(.failure(CreateTestError(code: 4)))])

        let late = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(late)
        #expect(late.events == [.subscription, .completion(.failure(CreateTestError(code: 4)))])
    }

    @Test func onlyTheFirstPromiseCallCounts() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        promise(.success(1))
        promise(.success(2))
        promise(.failure(CreateTestError()))
        let late = TestSubscriber<Int, CreateTestError>()
        future.subscribe(late)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(late.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func promiseCalledInsideTheClosureTwiceKeepsTheFirst() {
        let future = Sut { promise in
            promise(.failure(CreateTestError(code: 1)))
            promise(.success(3))
        }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(CreateTestError(code: 1)))])
    }

    @Test func everySubscriberReceivesTheResultInSubscriptionOrder() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let order = Mutex<[Int]>([])
        let subscribers = (0..<4).map { index in
            let subscriber = TestSubscriber<Int, CreateTestError>()
            subscriber.onReceiveValue { _ in order.withLock { $0.append(index) } }
            return subscriber
        }
        for subscriber in subscribers { future.subscribe(subscriber) }
        promise(.success(11))
        for subscriber in subscribers {
            #expect(subscriber.events == [.subscription, .value(11), .completion(.finished)])
        }
        #expect(order.withLock { $0 } == [0, 1, 2, 3])
    }

    @Test func cancelBeforeSettlingSendsNothing() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        let other = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        future.subscribe(other)
        let subscription = subscriber.subscription
        subscriber.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        promise(.success(2))
        #expect(subscriber.events == [.subscription])
        #expect(other.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func cancelAfterSettlingButBeforeDemandSendsNothing() {
        let future = Sut { $0(.success(2)) }
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(subscriber)
        let subscription = subscriber.subscription
        subscriber.cancel()
        subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelFromInsideReceiveSubscriptionSendsNothing() {
        let future = Sut { $0(.success(2)) }
        var received: [Int] = []
        future.subscribe(
            AnySubscriber(
                receiveSubscription: {
                    $0.cancel(); $0.request(.max(1))
                },
                receiveValue: {
                    received.append($0); return .none
                }))
        #expect(received.isEmpty)
    }

    @Test func promiseCalledAgainFromReceiveIsIgnored() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        subscriber.onReceiveValue { promise(.success($0 + 1)) }
        future.subscribe(subscriber)
        promise(.success(0))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func subscribingFromReceiveGetsTheSameResult() {
        let promise = PromiseBox<Int, CreateTestError>()
        let future = Sut { promise.keep($0) }
        let nested = TestSubscriber<Int, CreateTestError>()
        let subscriber = TestSubscriber<Int, CreateTestError>()
        subscriber.onReceiveValue { _ in future.subscribe(nested) }
        future.subscribe(subscriber)
        promise(.success(6))
        #expect(nested.events == [.subscription, .value(6), .completion(.finished)])
    }

    @Test func subscriptionIsNamedFuture() throws {
        let future = Sut { _ in }
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Future")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Future")
        let labels = Mirror(reflecting: subscription).children.map(\.label)
        #expect(labels == ["parent", "downstream", "hasAnyDemand", "subject"])
        subscriber.cancel()
    }

    @Test(arguments: [true, false])
    func subscriptionKeepsItsFutureUntilTheResultIsDelivered(succeeds: Bool) throws {
        var promise: Sut.Promise?
        let future = Sut { promise = $0 }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func hasParent() -> Bool {
            let parent = Mirror(reflecting: subscription).children.first { $0.label == "parent" }?.value
            guard let parent = parent as? Sut else { return false }
            return parent === future
        }
        var seenDuringDelivery: [Bool] = []
        subscriber.onReceiveValue { _ in seenDuringDelivery.append(hasParent()) }
        #expect(hasParent())
        promise?(succeeds ? .success(1) : .failure(CreateTestError()))
        #expect(seenDuringDelivery == (succeeds ? [true] : []))
        #expect(!hasParent())
    }

    @Test func subscriptionKeepsItsFutureWhenDemandArrivesAfterTheResult() throws {
        var promise: Sut.Promise?
        let future = Sut { promise = $0 }
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func hasParent() -> Bool {
            let parent = Mirror(reflecting: subscription).children.first { $0.label == "parent" }?.value
            guard let parent = parent as? Sut else { return false }
            return parent === future
        }
        promise?(.success(42))
        #expect(subscriber.events == [.subscription])
        #expect(hasParent())
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        #expect(hasParent())
    }

    @Test func releasesEverythingAfterDelivery() {
        weak var weakFuture: Sut?
        weak var weakSubscriber: TestSubscriber<Int, CreateTestError>?
        weak var weakSubscription: AnyObject?
        do {
            let promise = PromiseBox<Int, CreateTestError>()
            let future = Sut { promise.keep($0) }
            let subscriber = TestSubscriber<Int, CreateTestError>()
            future.subscribe(subscriber)
            weakFuture = future
            weakSubscriber = subscriber
            weakSubscription = subscriber.subscription as AnyObject?
            promise(.success(1))
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        #expect(weakFuture == nil)
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakFuture: Sut?
        weak var weakSubscriber: TestSubscriber<Int, CreateTestError>?
        weak var weakSubscription: AnyObject?
        let promise = PromiseBox<Int, CreateTestError>()
        do {
            let future = Sut { promise.keep($0) }
            let subscriber = TestSubscriber<Int, CreateTestError>()
            future.subscribe(subscriber)
            weakFuture = future
            weakSubscriber = subscriber
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        // The promise keeps the future alive, as it must to settle it later; but nothing else.
        #expect(weakFuture != nil)
        promise.keep { _ in }
        #expect(weakFuture == nil)
    }

    @Test func concurrentPromisesSettleOnce() {
        for _ in 0..<20 {
            let promise = PromiseBox<Int, CreateTestError>()
            let future = Sut { promise.keep($0) }
            let subscribers = (0..<8).map { _ in TestSubscriber<Int, CreateTestError>() }
            for subscriber in subscribers { future.subscribe(subscriber) }
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                promise(.success(index))
            }
            let first = subscribers[0].values
            #expect(first.count == 1)
            for subscriber in subscribers {
                #expect(subscriber.values == first)
                #expect(subscriber.completion == .finished)
            }
        }
    }

    @Test func concurrentSubscribersAndPromiseEachGetOneResult() {
        for round in 0..<20 {
            let promise = PromiseBox<Int, CreateTestError>()
            let future = Sut { promise.keep($0) }
            let subscribers = (0..<32).map { _ in TestSubscriber<Int, CreateTestError>() }
            let promiseIndex = subscribers.count / 2
            DispatchQueue.concurrentPerform(iterations: subscribers.count + 1) { index in
                if index == promiseIndex {
                    promise(.success(round))
                } else {
                    future.subscribe(subscribers[index < promiseIndex ? index : index - 1])
                }
            }
            for subscriber in subscribers {
                #expect(subscriber.events == [.subscription, .value(round), .completion(.finished)])
            }
        }
    }

    @Test func concurrentDemandAndPromiseDeliverExactlyOnce() {
        for round in 0..<50 {
            let promise = PromiseBox<Int, CreateTestError>()
            let future = Sut { promise.keep($0) }
            let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
            future.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index == 0 {
                    promise(.success(round))
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(round), .completion(.finished)])
        }
    }

    @Test func zeroDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Future<Int, Never> { _ in }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }
}
