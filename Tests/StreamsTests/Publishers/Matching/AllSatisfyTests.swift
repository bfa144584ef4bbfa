import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct AllSatisfyTests {
    @Test func publishesTrueWhenEveryElementPasses() {
        let subscriber = TestSubscriber<Bool, Never>()
        [2, 4, 6, 8].publisher.allSatisfy { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func emptyUpstreamPublishesTrue() {
        let subscriber = TestSubscriber<Bool, Never>()
        Empty<Int, Never>().allSatisfy { _ in false }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func publishesFalseAndCancelsUpstreamAtFirstFailure() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        let upstreamAtValue = Mutex<[SelectionUpstreamEvent]>([])
        subscriber.onReceiveValue { _ in upstreamAtValue.withLock { $0 = upstream.events } }
        let tested = Mutex(0)
        upstream.allSatisfy { value in
            tested.withLock { $0 += 1 }
            return value < 10
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(9)
        #expect(subscriber.events == [.subscription])
        upstream.send(10)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
        #expect(upstreamAtValue.withLock { $0 } == [.requested(.unlimited), .cancelled])
        #expect(tested.withLock { $0 } == 3)
    }

    @Test func earlyResultWaitsForDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
        upstream.allSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(0)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func tryAllSatisfyThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, any Error>()
        upstream.tryAllSatisfy { value in
            if value == 0 { throw SelectionTestError.other }
            return value > 0
        }
        .subscribe(subscriber)
        upstream.send(3)
        upstream.send(0)
        upstream.send(-5)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func tryAllSatisfyAnswersLikeAllSatisfy() {
        let passing = TestSubscriber<Bool, any Error>()
        [1, 2].publisher.tryAllSatisfy { $0 > 0 }.subscribe(passing)
        #expect(passing.typedEvents == [.subscription, .value(true), .completion(.finished)])
        let failing = TestSubscriber<Bool, any Error>()
        [1, -2, 3].publisher.tryAllSatisfy { $0 > 0 }.subscribe(failing)
        #expect(failing.typedEvents == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "AllSatisfy") { $0.allSatisfy { $0 > 0 } }
        checkReduceLikeCombineDetails { $0.allSatisfy { $0 > 0 } }
        checkReduceLikeContract(name: "TryAllSatisfy") { $0.tryAllSatisfy { $0 > 0 } }
        checkReduceLikeCombineDetails { $0.tryAllSatisfy { $0 > 0 } }
    }
}
