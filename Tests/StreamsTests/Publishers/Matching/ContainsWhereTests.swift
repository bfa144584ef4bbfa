import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct ContainsWhereTests {
    @Test func publishesTrueAtFirstMatchAndStopsCallingThePredicate() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        let tested = Mutex<[Int]>([])
        upstream.contains { value in
            tested.withLock { $0.append(value) }
            return value > 7
        }
        .subscribe(subscriber)
        upstream.send(-1)
        upstream.send(5)
        upstream.send(10)
        upstream.send(11)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(tested.withLock { $0 } == [-1, 5, 10])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func publishesFalseWithoutMatch() {
        let subscriber = TestSubscriber<Bool, Never>()
        [1, 2, 3].publisher.contains { $0 > 3 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func earlyResultWaitsForDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>(initialDemand: .none)
        upstream.contains { $0 == 1 }.subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func tryContainsFindsLikeContains() {
        let subscriber = TestSubscriber<Bool, any Error>()
        [1, 2, 3].publisher.tryContains { $0 == 2 }.subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func tryContainsThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Bool, any Error>(initialDemand: .none)
        upstream.tryContains { value in
            if value < 0 { throw SelectionTestError.oops }
            return value == 4
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(-3)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(4) == Subscribers.Demand.none)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.oops))])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "ContainsWhere") { $0.contains { $0 == 42 } }
        checkReduceLikeCombineDetails { $0.contains { $0 == 42 } }
        checkReduceLikeContract(name: "TryContainsWhere") { $0.tryContains { $0 == 42 } }
        checkReduceLikeCombineDetails { $0.tryContains { $0 == 42 } }
    }
}
