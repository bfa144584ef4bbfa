import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct FirstWhereTests {
    @Test func publishesFirstMatchAndStopsCallingThePredicate() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        let tested = Mutex<[Int]>([])
        upstream.first { value in
            tested.withLock { $0.append(value) }
            return value > 2
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription])
        upstream.send(3)
        upstream.send(4)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
        #expect(tested.withLock { $0 } == [1, 2, 3])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func matchWaitsForDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.first { $0 > 1 }.subscribe(subscriber)
        for value in 0...3 { upstream.send(value) }
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func noMatchFinishesWithoutValue() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.first { $0 > 3 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func noMatchWithoutDemandWaitsForDemandToFinish() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.first { $0 > 3 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func tryFirstFindsLikeFirst() {
        let subscriber = TestSubscriber<Int, any Error>()
        [3, 7, 0, 12].publisher.tryFirst { $0 > 5 }.subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func tryFirstThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
        upstream.tryFirst { value in
            if value == 3 { throw SelectionTestError.oops }
            return value > 3
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(3)
        upstream.send(5)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func sharesTheReduceLikeContract() {
        // Combine's own subscription for `first(where:)` prints "TryFirst".
        checkReduceLikeContract(name: "TryFirst") { $0.first { $0 > 100 } }
        checkReduceLikeCombineDetails { $0.first { $0 > 100 } }
        checkReduceLikeContract(name: "TryFirstWhere") { $0.tryFirst { $0 > 100 } }
        checkReduceLikeCombineDetails { $0.tryFirst { $0 > 100 } }
    }
}
