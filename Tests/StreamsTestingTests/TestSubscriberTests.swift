import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct TestSubscriberTests {
    @Test func recordsValuesAndCompletionInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func asksForItsInitialDemandOnlyWhenThereIsOneAndReturnsItsDemandPerValue() {
        let scheduler = DispatchQueue.test
        let script: [Recorded<DispatchStride, TestEvent<Int, Never>>] = [
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        ]
        let publisher = scheduler.createColdPublisher(script)
        let waiting = TestSubscriber<Int, Never>(initialDemand: .none)
        let pacing = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        let choosy = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 1 ? .max(2) : .none }
        for subscriber in [waiting, pacing, choosy] { publisher.subscribe(subscriber) }
        scheduler.advance(by: .seconds(3))
        #expect(waiting.values == [])
        #expect(pacing.values == [1, 2, 3])
        #expect(choosy.values == [1, 2, 3])
        let demands = publisher.subscriptions.map { $0.demands.map(\.value) }
        #expect(demands == [[], [.max(1), .max(1), .max(1), .max(1)], [.max(1), .max(2)]])
    }

    @Test func theHookSeesTheValueAlreadyRecorded() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var seen: [[Int]] = []
        subscriber.onReceiveValue { _ in seen.append(subscriber.values) }
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(seen == [[1], [1, 2]])
    }

    @Test func cancellingCancelsTheSubscriptionLetsGoOfItAndEndsTheRecording() {
        let scheduler = DispatchQueue.test
        let script: [Recorded<DispatchStride, TestEvent<Int, Never>>] = [.value(1, at: .seconds(1))]
        let publisher = scheduler.createColdPublisher(script)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        #expect(subscriber.subscription != nil)
        subscriber.cancel()
        #expect(subscriber.subscription == nil)
        subscriber.request(.max(1))  // no subscription left to ask
        subscriber.cancel()  // a second cancel does nothing
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.events == [.subscription])
        #expect(publisher.subscriptions.map(\.cancelled) == [.zero])
        #expect(publisher.subscriptions.map { $0.demands.count } == [0])
    }

    @Test func theCompletionLetsGoOfTheSubscriptionAndTheFirstOneIsReported() {
        let subscriber = TestSubscriber<Int, PacingFailure>()
        let first = PassthroughSubject<Int, PacingFailure>()
        first.subscribe(subscriber)
        first.send(completion: .failure(.first))
        #expect(subscriber.subscription == nil)
        subscriber.receive(completion: .failure(.second))  // a misbehaving upstream's second completion
        #expect(subscriber.completion == .failure(.first))
        #expect(subscriber.events == [.subscription, .completion(.failure(.first)), .completion(.failure(.second))])
    }

    @Test func countsEverySubscriptionItIsGiven() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).subscribe(subscriber)
        Just(2).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 2)
        #expect(subscriber.values == [1, 2])
    }

    @Test func recordsEveryValueSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(thread * 250 + value) }
        }
        #expect(subscriber.values.sorted() == Array(0..<2_000))
    }
}

/// Two failures to tell apart.
enum PacingFailure: Error, Equatable {
    case first
    case second
}
