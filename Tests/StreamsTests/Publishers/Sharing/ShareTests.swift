import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A publisher that counts the subscriptions it hands out and forwards them to a subject.
private final class CountingUpstream: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = PacingError

    let subject = PassthroughSubject<Int, PacingError>()
    private let count = Mutex(0)

    var subscriptions: Int { count.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == PacingError {
        count.withLock { $0 += 1 }
        subject.receive(subscriber: subscriber)
    }
}

@Suite(.timeLimit(.minutes(3))) struct ShareTests {
    // MARK: Sharing

    @Test func theFirstSubscriberConnectsAndEveryoneSharesTheValues() {
        let upstream = PacingUpstream<Int, PacingError>()
        let shared = upstream.share()
        #expect(upstream.events == [])
        let first = TestSubscriber<Int, PacingError>()
        shared.subscribe(first)
        #expect(upstream.events == [.requested(.unlimited)])
        let second = TestSubscriber<Int, PacingError>()
        shared.subscribe(second)
        #expect(upstream.events == [.requested(.unlimited)])

        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(.oops))
        for subscriber in [first, second] {
            #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.oops))])
        }
    }

    @Test func theUpstreamWorksOncePerValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let computed = Mutex<[Int]>([])
        let shared = upstream.map { value -> Int in
            computed.withLock { $0.append(value) }
            return value * value
        }
        .share()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        upstream.send(3)
        upstream.send(4)
        #expect(computed.withLock { $0 } == [3, 4])
        #expect(first.values == [9, 16])
        #expect(second.values == [9, 16])
    }

    @Test func aLateSubscriberSeesOnlyLaterValues() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let early = TestSubscriber<Int, Never>()
        shared.subscribe(early)
        upstream.send(1)
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        upstream.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func eachSubscriberGetsWhatItAskedFor() {
        let upstream = PacingUpstream<Int, Never>()
        let shared = upstream.share()
        let twoAtFirst = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let oneByOne = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        let none = TestSubscriber<Int, Never>(initialDemand: .none)
        for subscriber in [twoAtFirst, oneByOne, none] { shared.subscribe(subscriber) }
        for value in 1...4 { upstream.send(value) }
        #expect(twoAtFirst.values == [1, 2])
        #expect(oneByOne.values == [1, 2, 3, 4])
        #expect(none.values == [])
        none.request(.max(1))
        upstream.send(5)
        #expect(none.values == [5])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    // MARK: Completion and resubscription

    @Test func aSubscriberAfterTheCompletionReceivesItWithoutResubscribing() {
        let upstream = CountingUpstream()
        let shared = upstream.share()
        let first = TestSubscriber<Int, PacingError>()
        shared.subscribe(first)
        upstream.subject.send(1)
        upstream.subject.send(completion: .finished)
        let late = TestSubscriber<Int, PacingError>(initialDemand: .none)
        shared.subscribe(late)
        #expect(late.events == [.subscription, .completion(.finished)])
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        // Completing is not cancelling: the connection stays, so nothing subscribes again.
        #expect(upstream.subscriptions == 1)
    }

    @Test func theLastCancelDisconnectsAndTheNextSubscriberConnectsAgain() {
        let upstream = PacingUpstream<Int, Never>()
        let shared = upstream.share()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        #expect(upstream.events == [.requested(.unlimited)])
        upstream.send(1)
        second.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(first.values == [])
        #expect(second.values == [1])

        let third = TestSubscriber<Int, Never>()
        shared.subscribe(third)
        #expect(upstream.events == [.requested(.unlimited), .cancelled, .requested(.unlimited)])
        upstream.send(2)
        #expect(third.values == [2])
    }

    @Test func aSubscriberAttachingFromInsideTheFirstJoinsItsConnection() {
        let upstream = CountingUpstream()
        let shared = upstream.share()
        let inner = TestSubscriber<Int, PacingError>()
        let outer = AnySubscriber<Int, PacingError>(
            receiveSubscription: { subscription in
                shared.subscribe(inner)
                subscription.request(.unlimited)
            }, receiveValue: { _ in .none }, receiveCompletion: { _ in })
        shared.subscribe(outer)
        upstream.subject.send(1)
        #expect(upstream.subscriptions == 1)
        #expect(inner.values == [1])
    }

    @Test func theSubscriptionDescribesItselfAsMulticast() throws {
        let shared = PassthroughSubject<Int, Never>().share()
        let subscriber = TestSubscriber<Int, Never>()
        shared.subscribe(subscriber)
        #expect(String(describing: try #require(subscriber.subscription)) == "Multicast")
    }

    @Test func equalOnlyToItself() {
        let upstream = PassthroughSubject<Int, Never>()
        let one = upstream.share()
        let other = upstream.share()
        #expect(one == one)
        #expect(one != other)
        #expect(one.upstream === upstream)
    }

    // MARK: Concurrency and memory

    @Test func subscribingFromManyThreadsConnectsOnce() {
        let upstream = CountingUpstream()
        let shared = upstream.share()
        let subscribers = (0..<16).map { _ in TestSubscriber<Int, PacingError>() }
        DispatchQueue.concurrentPerform(iterations: subscribers.count) { index in
            shared.subscribe(subscribers[index])
            upstream.subject.send(index)
        }
        upstream.subject.send(-1)
        upstream.subject.send(completion: .finished)
        #expect(upstream.subscriptions == 1)
        for subscriber in subscribers {
            #expect(subscriber.values.last == -1)
            #expect(subscriber.completion == .finished)
        }
    }

    @Test func subscribingAndCancellingFromManyThreads() {
        let upstream = CountingUpstream()
        let shared = upstream.share()
        let received = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                let subscriber = TestSubscriber<Int, PacingError>()
                subscriber.onReceiveValue { _ in received.withLock { $0 += 1 } }
                shared.subscribe(subscriber)
                upstream.subject.send(thread * 100 + round)
                subscriber.cancel()
            }
        }
        // A subscriber that joins while another thread is still connecting may miss its own value,
        // so only the total is checked: values flowed, and nothing crashed or raced.
        #expect(received.withLock { $0 } > 0)
        let last = TestSubscriber<Int, PacingError>()
        shared.subscribe(last)
        upstream.subject.send(7)
        #expect(last.values == [7])
    }

    @Test func everythingIsReleasedAfterTheLastCancel() {
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakShare: Publishers.Share<PassthroughSubject<Int, Never>>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let shared = upstream.share()
            let subscriber = TestSubscriber<Int, Never>()
            weakShare = shared
            weakSubscriber = subscriber
            shared.subscribe(subscriber)
            upstream.send(1)
            #expect(subscriber.values == [1])
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakShare == nil)
    }

    @Test func aCompletedSubscriberIsReleased() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            shared.subscribe(subscriber)
        }
        #expect(weakSubscriber != nil)
        upstream.send(completion: .finished)
        #expect(weakSubscriber == nil)
    }
}
