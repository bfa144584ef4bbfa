import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct LastWhereTests {
    @Test func publishesLastMatchOnFinish() {
        let upstream = SelectionUpstream<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        let tested = Mutex<[String]>([])
        upstream.last { word in
            tested.withLock { $0.append(word) }
            return word.count > 3
        }
        .subscribe(subscriber)
        for word in ["abc", "hello", "world", "fin"] { upstream.send(word) }
        #expect(subscriber.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("world"), .completion(.finished)])
        #expect(tested.withLock { $0 } == ["abc", "hello", "world", "fin"])
    }

    @Test func noMatchFinishesWithoutValue() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.last { $0 > 5 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func matchWaitsForDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (-10...10).publisher.last { $0 < 6 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func tryLastThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryLast { value in
            if value == 0 { throw SelectionTestError.other }
            return value > 5
        }
        .subscribe(subscriber)
        upstream.send(7)
        upstream.send(0)
        upstream.send(12)
        upstream.send(completion: .finished)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func tryLastFindsLikeLast() {
        let subscriber = TestSubscriber<Int, any Error>()
        [3, 7, 1, 12, 2].publisher.tryLast { $0 > 5 }.subscribe(subscriber)
        #expect(subscriber.typedEvents == [.subscription, .value(12), .completion(.finished)])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "LastWhere") { $0.last { $0 > 0 } }
        checkReduceLikeCombineDetails { $0.last { $0 > 0 } }
        checkReduceLikeContract(name: "TryLastWhere") { $0.tryLast { $0 > 0 } }
        checkReduceLikeCombineDetails { $0.tryLast { $0 > 0 } }
    }
}
