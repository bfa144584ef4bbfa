import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct IgnoreOutputTests {
    @Test func dropsValuesAndPassesTheCompletion() {
        let subscriber = TestSubscriber<Never, Never>()
        (1...100).publisher.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func passesTheFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Never, TransformTestError>()
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .completion(.failure(.upstream))])
    }

    @Test func requestsUnlimitedAfterHandingTheSubscriptionDown() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Never, Never>(initialDemand: .max(1))
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.calls == [.request(.max(1)), .request(.unlimited)])
    }

    @Test func requestsUnlimitedEvenWithoutDownstreamDemand() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Never, Never>(initialDemand: .none)
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.calls == [.request(.unlimited)])
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func cancelReachesUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Never, Never>()
        subject.ignoreOutput().subscribe(subscriber)
        subscriber.cancel()
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func subscriberIsNamedIgnoreOutput() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        upstream.ignoreOutput().subscribe(TestSubscriber<Never, Never>())
        #expect(TransformReflection(of: try #require(upstream.subscriber)) == .named("IgnoreOutput"))
    }

    @Test func isEquatableWhenTheUpstreamIs() {
        #expect(Publishers.IgnoreOutput(upstream: Just(1)) == Publishers.IgnoreOutput(upstream: Just(1)))
        #expect(Publishers.IgnoreOutput(upstream: Just(1)) != Publishers.IgnoreOutput(upstream: Just(2)))
    }

    @Test func isSendableWhenTheUpstreamIs() {
        let sendable: any Sendable = Publishers.IgnoreOutput(upstream: Just(3))
        #expect(sendable is Publishers.IgnoreOutput<Just<Int>>)
    }

    @Test func concurrentSendsEndWithTheCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Never, Never>()
        subject.ignoreOutput().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread + index) }
        }
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func releasesEverythingAfterCompletion() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Never, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Never, Never>()
            subject.ignoreOutput().subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            subject.send(1)
            subject.send(completion: .finished)
        }
        #expect(weakSubject == nil)
        #expect(weakSubscriber == nil)
    }
}
