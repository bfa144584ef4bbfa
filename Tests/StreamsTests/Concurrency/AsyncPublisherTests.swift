import Dispatch
import Streams
import StreamsTesting
import Testing

/// Code on the main actor iterating a publisher's values, as an app's view model would.
@MainActor
private final class Screen {
    private(set) var shown: [String] = []

    func show(_ titles: some Publisher<String, Never>) async {
        for await title in titles.values {
            shown.append(title)
        }
    }
}

/// A non-sendable element, to check that elements never have to cross an isolation boundary.
private final class Page {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }
}

@Suite struct AsyncPublisherTests {
    @Test func deliversTheValuesOfASequenceInOrder() async {
        var received: [Int] = []
        for await value in [1, 2, 3].publisher.values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func requestsOneValueForEachCallToNext() async {
        let publisher = BridgePublisher<Int, Never>()
        publisher.script([10, 20, 30])
        var received: [Int] = []
        var requestsSeen: [Int] = []
        for await value in publisher.values {
            received.append(value)
            requestsSeen.append(publisher.history.count)
        }
        #expect(received == [10, 20, 30])
        #expect(requestsSeen == [1, 2, 3])
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 4))
    }

    @Test func requestsOneValueAtATimeFromAnotherThread() async {
        let publisher = BridgePublisher<Int, Never>()
        publisher.script(Array(1...50), on: DispatchQueue(label: "AsyncPublisherTests.producer"))
        var received: [Int] = []
        var requestsSeen: [Int] = []
        for await value in publisher.values {
            received.append(value)
            requestsSeen.append(publisher.history.count)
        }
        #expect(received == Array(1...50))
        #expect(requestsSeen == Array(1...50))
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 51))
    }

    @Test func subscribesWhenTheIteratorIsMadeAndRequestsOnlyWhenAsked() async {
        let publisher = BridgePublisher<Int, Never>()
        let values = publisher.values
        #expect(!publisher.subscriberIsAlive)
        var iterator = values.makeAsyncIterator()
        #expect(publisher.subscriberIsAlive)
        #expect(publisher.history == [])
        publisher.script([7])
        #expect(await iterator.next() == 7)
        #expect(publisher.history == [.requested(.max(1))])
    }

    @Test func endsWithNilWhenUpstreamFinishesWhileWaiting() async {
        let publisher = BridgePublisher<Int, Never>()
        let iterator = publisher.values.makeAsyncIterator()
        let task = Task {
            var copy = iterator
            return await copy.next()
        }
        await publisher.waitForCalls(1)
        publisher.send(completion: .finished)
        #expect(await task.value == nil)
        var copy = iterator
        #expect(await copy.next() == nil)
        #expect(publisher.history == [.requested(.max(1))])
    }

    @Test func endsAtOnceWhenUpstreamFinishedBeforeTheFirstCall() async {
        let publisher = BridgePublisher<Int, Never>()
        var iterator = publisher.values.makeAsyncIterator()
        publisher.send(completion: .finished)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        #expect(publisher.history == [])

        var count = 0
        for await _ in Empty<Int, Never>().values { count += 1 }
        #expect(count == 0)
        var justValues: [Int] = []
        for await value in Just(5).values { justValues.append(value) }
        #expect(justValues == [5])
    }

    @Test func cancellingTheWaitingTaskCancelsUpstreamAndEndsWithNil() async {
        let publisher = BridgePublisher<Int, Never>()
        let task = Task {
            var iterator = publisher.values.makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            return [first, second]
        }
        await publisher.waitForCalls(1)
        task.cancel()
        #expect(await task.value == [nil, nil])
        #expect(publisher.history == [.requested(.max(1)), .cancelled])
        #expect(publisher.send(1) == .none)
    }

    @Test func anAlreadyCancelledTaskEndsAtOnceWithoutRequesting() async {
        let publisher = BridgePublisher<Int, Never>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for await value in publisher.values { received.append(value) }
            return received
        }
        #expect(await task.value == [])
        #expect(publisher.history == [.cancelled])
    }

    @Test func breakingOutOfTheLoopCancelsUpstream() async {
        let publisher = BridgePublisher<Int, Never>()
        publisher.script([1, 2, 3, 4, 5])
        var received: [Int] = []
        for await value in publisher.values {
            received.append(value)
            if value == 2 { break }
        }
        #expect(received == [1, 2])
        #expect(publisher.history == [.requested(.max(1)), .requested(.max(1)), .cancelled])
        #expect(!publisher.subscriberIsAlive)
    }

    @Test func droppingTheIteratorCancelsUpstreamAndReleasesTheSubscriber() async {
        let publisher = BridgePublisher<Int, Never>()
        publisher.script([1, 2, 3])
        do {
            var iterator = publisher.values.makeAsyncIterator()
            #expect(await iterator.next() == 1)
        }
        #expect(publisher.history == [.requested(.max(1)), .cancelled])
        #expect(!publisher.subscriberIsAlive)
    }

    @Test func releasesEverythingAfterFinishing() async {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            var iterator = subject.values.makeAsyncIterator()
            subject.send(completion: .finished)
            #expect(await iterator.next() == nil)
        }
        #expect(weakSubject == nil)
    }

    @Test func copiesOfTheIteratorShareOneSubscriptionAndServeWaitingCallsInOrder() async {
        let publisher = BridgePublisher<Int, Never>()
        let iterator = publisher.values.makeAsyncIterator()
        let executor = ManualTaskExecutor()
        let tasks = (0..<3).map { _ in
            Task(executorPreference: executor) {
                var copy = iterator
                return await copy.next()
            }
        }
        executor.runUntilIdle()
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 3))
        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        executor.runUntilIdle()
        var results: [Int?] = []
        for task in tasks { results.append(await task.value) }
        #expect(results == [1, 2, nil])
    }

    @Test func requestsMadeBeforeTheSubscriptionArrivesAddUp() async {
        let publisher = BridgePublisher<Int, Never>(subscribesAtOnce: false)
        let iterator = publisher.values.makeAsyncIterator()
        let executor = ManualTaskExecutor()
        let tasks = (0..<2).map { _ in
            Task(executorPreference: executor) {
                var copy = iterator
                return await copy.next()
            }
        }
        executor.runUntilIdle()
        #expect(publisher.history == [])
        publisher.sendSubscription()
        #expect(publisher.history == [.requested(.max(2))])
        publisher.send(1)
        publisher.send(2)
        executor.runUntilIdle()
        var results: [Int?] = []
        for task in tasks { results.append(await task.value) }
        #expect(results == [1, 2])
    }

    @Test func cancelsASecondSubscriptionAndOneArrivingAfterCancellation() async {
        let publisher = BridgePublisher<Int, Never>()
        let extra = BridgePublisher<Int, Never>()
        var iterator: AsyncPublisher<BridgePublisher<Int, Never>>.Iterator? = publisher.values.makeAsyncIterator()
        publisher.sendSubscription(extra)
        #expect(extra.history == [.cancelled])
        #expect(publisher.history == [])

        let late = BridgePublisher<Int, Never>(subscribesAtOnce: false)
        var lateIterator: AsyncPublisher<BridgePublisher<Int, Never>>.Iterator? = late.values.makeAsyncIterator()
        #expect(late.subscriberIsAlive)
        lateIterator = nil
        late.sendSubscription()
        #expect(late.history == [.cancelled])
        iterator = nil
        #expect(publisher.history == [.cancelled])
        _ = (iterator, lateIterator)
    }

    @Test func ignoresValuesAfterCompletion() async {
        let publisher = BridgePublisher<Int, Never>()
        var iterator = publisher.values.makeAsyncIterator()
        publisher.send(completion: .finished)
        #expect(publisher.send(3) == .none)
        #expect(await iterator.next() == nil)
    }

    @Test func aValueNobodyRequestedIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = BridgePublisher<Int, Never>()
            let iterator = publisher.values.makeAsyncIterator()
            publisher.send(1)
            withExtendedLifetime(iterator) {}
        }
        expectTrapMessage(trap1, contains: "An async sequence of a publisher received a value it did not request")
    }

    @Test func concurrentProducersDeliverEveryValueExactlyOnce() async {
        let source = PermitSource()
        let producers = 4
        let perProducer = 250
        source.start(producers: producers, valuesEach: perProducer)

        var received: [Int] = []
        for await value in source.values {
            received.append(value)
        }
        let total = producers * perProducer
        #expect(received.count == total)
        #expect(Set(received) == Set(0..<total))
        #expect(received.reduce(0, +) == (0..<total).reduce(0, +))
        // One request per value, and one more for the end unless the completion came first.
        let history = source.history
        #expect(Set(history) == [.requested(.max(1))])
        #expect(history.count == total || history.count == total + 1)
    }

    @Test func iteratesOnTheMainActor() async {
        let screen = Screen()
        await screen.show(["Inbox", "Drafts", "Sent"].publisher)
        #expect(await screen.shown == ["Inbox", "Drafts", "Sent"])
    }

    @Test func elementsNeedNotBeSendable() async {
        let pages = [Page(1), Page(2)].publisher
        var numbers: [Int] = []
        for await page in pages.values { numbers.append(page.number) }
        var iterator = pages.values.makeAsyncIterator()
        numbers.append(await iterator.next()?.number ?? 0)
        #expect(numbers == [1, 2, 1])
    }

    @Test func aValueASubjectSendsWhileTheLoopBodyRunsIsDropped() async {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        // `prepend(1)` gives the loop a first value; the subject is subscribed, with no demand, by then.
        for await value in subject.prepend(1).values {
            received.append(value)
            if value == 1 {
                subject.send(2)  // The loop has not asked for another value yet.
                subject.send(completion: .finished)
            }
        }
        #expect(received == [1])
    }

    @Test func aBufferBeforeValuesKeepsWhatASubjectSendsWhileTheLoopBodyRuns() async {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        for await value in subject.prepend(1).buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest).values {
            received.append(value)
            if value == 1 {
                subject.send(2)
                subject.send(3)
                subject.send(completion: .finished)
            }
        }
        #expect(received == [1, 2, 3])
    }
}
