import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct BufferTests {
    // MARK: Prefetching and demand

    @Test func keepFullAsksForTheSizeThenOneMorePerDeliveredValue() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(3))])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(upstream.events == [.requested(.max(3)), .requested(.max(1))])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2])
        #expect(upstream.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func byRequestAsksForEverythingAtOnce() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.events == [.requested(.unlimited)])
        for value in 1...3 { #expect(upstream.send(value) == Subscribers.Demand.none) }
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    // MARK: When full

    @Test func dropNewestKeepsTheFirstElements() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [1, 2])
    }

    @Test func dropOldestKeepsTheLastElements() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [4, 5])
    }

    @Test func customErrorCancelsUpstreamAndFailsAfterTheBufferedElements() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { .other }).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(.other))])
    }

    @Test func sendingFromInsideTheCustomErrorClosureIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = SelectionUpstream<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            upstream.buffer(
                size: 0, prefetch: .byRequest,
                whenFull: .customError {
                    upstream.send(2)
                    fatalError("unreachable")
                }
            ).subscribe(subscriber)
            upstream.send(1)
        }
        expectTrapMessage(
            trap1, contains: "buffer(size:prefetch:whenFull:) received a value from inside its customError closure")
    }

    // MARK: Completion

    @Test func finishingWaitsForTheBufferedElements() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func aFailureGoesDownAtOnceWhenThereIsNoDemand() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndDropsTheBuffer() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.max(5)), .cancelled])
    }

    @Test func describesItselfAsBuffer() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(7)
        let subscription = subscriber.subscription!
        #expect(String(describing: subscription) == "Buffer")
        let children = Mirror(reflecting: subscription).children.map { "\($0.label ?? ""): \($0.value)" }
        #expect(children.count == 4)
        #expect(children.first == "values: [7]")
        #expect(children.last == "terminal: nil")
    }

    // MARK: Threads

    /// Upstream sends from one thread while downstream requests from another: every element goes
    /// down once, in order, never two deliveries at once, and TSan sees no race.
    @Test func requestsAndElementsFromDifferentThreads() {
        for _ in 0..<20 {
            let upstream = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            let detector = ReentryDetector()
            subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
            upstream.buffer(size: 500, prefetch: .byRequest, whenFull: .customError { fatalError("full") })
                .subscribe(subscriber)
            runOnThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<300 { upstream.send(value) }
                } else {
                    for _ in 0..<300 { subscriber.request(.max(1)) }
                }
            }
            #expect(detector.overlaps == 0)
            #expect(subscriber.values == Array(0..<300))
        }
    }

    /// Several senders and a requester, each on a thread of its own, with room for everything: every
    /// element goes down once, in the order the subject took the sends (as a plain subscriber sees it).
    @Test func manySendersAndARequesterOnTheirOwnThreadsLoseNothing() {
        let upstream = PassthroughSubject<Int, Never>()
        let everything = TestSubscriber<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(everything)
        upstream.buffer(size: 1_000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        runOnThreads(5) { thread in
            if thread < 4 {
                for value in 0..<250 { upstream.send(thread * 1_000 + value) }
            } else {
                for _ in 0..<1_000 { subscriber.request(.max(1)) }
            }
        }
        #expect(everything.values.count == 1_000)
        #expect(subscriber.values == everything.values)
    }

    /// With a small buffer that drops, what goes down is a subsequence of what was sent: nothing
    /// duplicated, each sender's elements in its own order, never more than was requested.
    @Test(arguments: [true, false]) func aDroppingBufferUnderThreadsKeepsEachSendersOrder(dropsOldest: Bool) {
        let strategy: Publishers.BufferingStrategy<Never> = dropsOldest ? .dropOldest : .dropNewest
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 8, prefetch: .byRequest, whenFull: strategy).subscribe(subscriber)
        runOnThreads(4) { thread in
            if thread < 3 {
                for value in 0..<300 { upstream.send(thread * 1_000 + value) }
            } else {
                for _ in 0..<200 { subscriber.request(.max(1)) }
            }
        }
        subscriber.request(.max(8))  // whatever is still buffered
        let values = subscriber.values
        #expect(values.count <= 208)
        #expect(Set(values).count == values.count)
        for sender in 0..<3 {
            let own = values.filter { $0 / 1_000 == sender }
            #expect(own == own.sorted())
        }
    }

    // MARK: Memory

    @Test func releasesEverythingAfterCancelOrCompletion() {
        weak var cancelled: TestSubscriber<Int, Never>?
        weak var finished: TestSubscriber<Int, Never>?
        do {
            let upstream = PassthroughSubject<Int, Never>()
            let first = TestSubscriber<Int, Never>(initialDemand: .none)
            cancelled = first
            upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).subscribe(first)
            upstream.send(1)
            first.cancel()
            let second = TestSubscriber<Int, Never>()
            finished = second
            let other = PassthroughSubject<Int, Never>()
            other.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(second)
            other.send(1)
            other.send(completion: .finished)
        }
        #expect(cancelled == nil)
        #expect(finished == nil)
    }
}
