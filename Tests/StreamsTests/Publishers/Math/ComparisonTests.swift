import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct ComparisonTests {
    @Test func minAndMaxOfComparableElements() {
        let smallest = TestSubscriber<Int, Never>()
        [1, -1, 10, 5].publisher.min().subscribe(smallest)
        #expect(smallest.events == [.subscription, .value(-1), .completion(.finished)])
        let largest = TestSubscriber<Int, Never>()
        [1, -1, 10, 5].publisher.max().subscribe(largest)
        #expect(largest.events == [.subscription, .value(10), .completion(.finished)])
    }

    @Test func keepsTheFirstOfEqualElements() {
        struct Item: Equatable { let rank: Int, name: String }
        let items = [
            Item(rank: 2, name: "a"), Item(rank: 1, name: "b"), Item(rank: 2, name: "c"), Item(rank: 1, name: "d"),
        ]
        let largest = TestSubscriber<Item, Never>()
        items.publisher.max { $0.rank < $1.rank }.subscribe(largest)
        #expect(largest.values.map(\.name) == ["a"])
        let smallest = TestSubscriber<Item, Never>()
        items.publisher.min { $0.rank < $1.rank }.subscribe(smallest)
        #expect(smallest.values.map(\.name) == ["b"])
    }

    @Test func maxCallsTheClosureWithLargestSoFarFirst() {
        let calls = Mutex<[[Int]]>([])
        let subscriber = TestSubscriber<Int, Never>()
        // Ordered by trailing zero bits, so plain `<` would give another answer.
        [2, 1, 4, 6, 15, 8, 12].publisher
            .max { lhs, rhs in
                calls.withLock { $0.append([lhs, rhs]) }
                return lhs.trailingZeroBitCount < rhs.trailingZeroBitCount
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [8])
        #expect(calls.withLock { $0 } == [[2, 1], [2, 4], [4, 6], [4, 15], [4, 8], [8, 12]])
    }

    @Test func minCallsTheClosureWithNewElementFirst() {
        let calls = Mutex<[[Int]]>([])
        let subscriber = TestSubscriber<Int, Never>()
        [2, 1, 4, 6, 15, 8, 12].publisher
            .min { lhs, rhs in
                calls.withLock { $0.append([lhs, rhs]) }
                return lhs.trailingZeroBitCount < rhs.trailingZeroBitCount
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(calls.withLock { $0 } == [[1, 2], [4, 1], [6, 1], [15, 1], [8, 1], [12, 1]])
    }

    @Test func emptyUpstreamFinishesWithoutValue() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().max().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func emptyUpstreamWithoutDemandWaitsForDemandToFinish() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.min().subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func resultWaitsForDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.max().subscribe(subscriber)
        upstream.send(3)
        upstream.send(7)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func tryMinAndTryMaxOrderLikeMinAndMax() {
        let smallest = TestSubscriber<Int, any Error>()
        [3, 1, 2].publisher.tryMin(by: <).subscribe(smallest)
        #expect(smallest.typedEvents == [.subscription, .value(1), .completion(.finished)])
        let largest = TestSubscriber<Int, any Error>()
        [3, 1, 2].publisher.tryMax(by: <).subscribe(largest)
        #expect(largest.typedEvents == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func tryComparisonThrowCancelsUpstreamAndFails() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        let calls = Mutex(0)
        upstream.tryMax { lhs, rhs in
            calls.withLock { $0 += 1 }
            if lhs == rhs { throw SelectionTestError.oops }
            return lhs < rhs
        }
        .subscribe(subscriber)
        upstream.send(3)
        upstream.send(1)
        upstream.send(3)
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(9) == Subscribers.Demand.none)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func tryMinPassesUpstreamFailureOn() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMin(by: <).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.typedEvents == [.subscription, .completion(.failure(.other))])
    }

    @Test func sharesTheReduceLikeContract() {
        checkReduceLikeContract(name: "Comparison") { $0.min() }
        checkReduceLikeCombineDetails { $0.min() }
        checkReduceLikeContract(name: "Comparison") { $0.max() }
        checkReduceLikeCombineDetails { $0.max() }
        checkReduceLikeContract(name: "Comparison") { $0.min(by: >) }
        checkReduceLikeCombineDetails { $0.min(by: >) }
        checkReduceLikeContract(name: "Comparison") { $0.max(by: >) }
        checkReduceLikeCombineDetails { $0.max(by: >) }
        checkReduceLikeContract(name: "TryComparison") { $0.tryMin(by: <) }
        checkReduceLikeCombineDetails { $0.tryMin(by: <) }
        checkReduceLikeContract(name: "TryComparison") { $0.tryMax(by: <) }
        checkReduceLikeCombineDetails { $0.tryMax(by: <) }
    }
}
