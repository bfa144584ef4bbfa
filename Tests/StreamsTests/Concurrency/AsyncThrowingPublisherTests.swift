import Dispatch
import Streams
import StreamsTesting
import Testing

/// Code on the main actor iterating a failing publisher's values.
@MainActor
private final class Feed {
    private(set) var shown: [String] = []
    private(set) var failure: BridgeError?

    func show(_ posts: some Publisher<String, BridgeError>) async {
        do {
            for try await post in posts.values {
                shown.append(post)
            }
        } catch {
            failure = error as? BridgeError
        }
    }
}

@Suite struct AsyncThrowingPublisherTests {
    /// Pulls every value until the sequence ends, recording the values and the error thrown, if any.
    private func drain<P: Publisher>(_ values: AsyncThrowingPublisher<P>) async -> ([P.Output], (any Error)?) {
        var received: [P.Output] = []
        do {
            for try await value in values { received.append(value) }
            return (received, nil)
        } catch {
            return (received, error)
        }
    }

    @Test func deliversValuesThenFinishes() async throws {
        var received: [Int] = []
        for try await value in Publishers.Sequence<[Int], BridgeError>(sequence: [1, 2, 3]).values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func requestsOneValuePerCallThenThrowsTheFailure() async {
        let publisher = BridgePublisher<Int, BridgeError>()
        publisher.script([1, 2], then: .failure(BridgeError(3)))
        let (received, error) = await drain(publisher.values)
        #expect(received == [1, 2])
        #expect(error as? BridgeError == BridgeError(3))
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 3))
    }

    @Test func deliversAcrossThreadsThenThrows() async {
        let publisher = BridgePublisher<Int, BridgeError>()
        publisher.script(Array(1...20), then: .failure(BridgeError(4)), on: DispatchQueue(label: "producer"))
        let (received, error) = await drain(publisher.values)
        #expect(received == Array(1...20))
        #expect(error as? BridgeError == BridgeError(4))
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 21))
    }

    @Test func throwsAnOperatorsError() async {
        let values = [1, 2, 3].publisher
            .tryMap { value -> Int in
                guard value < 3 else { throw BridgeError(value) }
                return value * 10
            }
            .values
        let (received, error) = await drain(values)
        #expect(received == [10, 20])
        #expect(error as? BridgeError == BridgeError(3))
    }

    @Test func aFailureWithNobodyWaitingIsThrownByTheNextCallThenTheSequenceEnds() async throws {
        let publisher = BridgePublisher<Int, BridgeError>()
        var iterator = publisher.values.makeAsyncIterator()
        publisher.send(completion: .failure(BridgeError(5)))
        await #expect(throws: BridgeError(5)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(publisher.history == [])
    }

    @Test func theFirstWaitingCallGetsTheFailureAndTheOthersNil() async {
        let publisher = BridgePublisher<Int, BridgeError>()
        let iterator = publisher.values.makeAsyncIterator()
        let executor = ManualTaskExecutor()
        let tasks = (0..<3).map { _ in
            Task(executorPreference: executor) { () -> Result<Int?, BridgeError> in
                var copy = iterator
                do { return .success(try await copy.next()) } catch { return .failure(error as! BridgeError) }
            }
        }
        executor.runUntilIdle()
        #expect(publisher.history == Array(repeating: .requested(.max(1)), count: 3))
        publisher.send(completion: .failure(BridgeError(6)))
        publisher.send(completion: .failure(BridgeError(7)))
        executor.runUntilIdle()
        var results: [Result<Int?, BridgeError>] = []
        for task in tasks { results.append(await task.value) }
        #expect(results == [.failure(BridgeError(6)), .success(nil), .success(nil)])
    }

    @Test func finishingWhileWaitingEndsWithNil() async throws {
        let publisher = BridgePublisher<Int, BridgeError>()
        let iterator = publisher.values.makeAsyncIterator()
        let task = Task {
            var copy = iterator
            return try await copy.next()
        }
        await publisher.waitForCalls(1)
        publisher.send(completion: .finished)
        #expect(try await task.value == nil)
        var copy = iterator
        #expect(try await copy.next() == nil)
    }

    @Test func cancellingTheWaitingTaskEndsWithNilInsteadOfThrowing() async throws {
        let publisher = BridgePublisher<Int, BridgeError>()
        let task = Task {
            var iterator = publisher.values.makeAsyncIterator()
            let first = try await iterator.next()
            let second = try await iterator.next()
            return [first, second]
        }
        await publisher.waitForCalls(1)
        task.cancel()
        #expect(try await task.value == [nil, nil])
        #expect(publisher.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancellationForgetsAFailureNobodyClaimed() async throws {
        let publisher = BridgePublisher<Int, BridgeError>()
        let task = Task {
            let iterator = publisher.values.makeAsyncIterator()
            publisher.send(completion: .failure(BridgeError(8)))
            withUnsafeCurrentTask { $0?.cancel() }
            var copy = iterator
            return try await copy.next()
        }
        #expect(try await task.value == nil)
        #expect(publisher.history == [])
    }

    @Test func breakingOutOfTheLoopCancelsUpstream() async throws {
        let publisher = BridgePublisher<Int, BridgeError>()
        publisher.script([1, 2, 3])
        var received: [Int] = []
        for try await value in publisher.values {
            received.append(value)
            if value == 1 { break }
        }
        #expect(received == [1])
        #expect(publisher.history == [.requested(.max(1)), .cancelled])
        #expect(!publisher.subscriberIsAlive)
    }

    @Test func iteratesOnTheMainActor() async {
        let feed = Feed()
        let publisher = BridgePublisher<String, BridgeError>()
        publisher.script(["hello", "world"], then: .failure(BridgeError(9)), on: DispatchQueue(label: "feed"))
        await feed.show(publisher)
        #expect(await feed.shown == ["hello", "world"])
        #expect(await feed.failure == BridgeError(9))
    }

    @Test func concurrentProducersFeedAThrowingSequence() async throws {
        let source = PermitSource()
        source.start(producers: 3, valuesEach: 100)
        var sum = 0
        var count = 0
        for try await value in source.setFailureType(to: BridgeError.self).values {
            sum += value
            count += 1
        }
        #expect(count == 300)
        #expect(sum == (0..<300).reduce(0, +))
        // One request per value, and one more for the end unless the completion came first.
        let history = source.history
        #expect(Set(history) == [.requested(.max(1))])
        #expect(history.count == 300 || history.count == 301)
    }

    @Test func aValueASubjectSendsWhileTheLoopBodyRunsIsDroppedUnlessBuffered() async throws {
        let unbuffered = PassthroughSubject<Int, BridgeError>()
        var received: [Int] = []
        for try await value in unbuffered.prepend(1).values {
            received.append(value)
            if value == 1 {
                unbuffered.send(2)
                unbuffered.send(completion: .finished)
            }
        }
        #expect(received == [1])

        let buffered = PassthroughSubject<Int, BridgeError>()
        received = []
        for try await value in buffered.prepend(1).buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
            .values
        {
            received.append(value)
            if value == 1 {
                buffered.send(2)
                buffered.send(completion: .finished)
            }
        }
        #expect(received == [1, 2])
    }
}
