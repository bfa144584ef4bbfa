import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A gate an async closure waits at until the test opens it with a value.
private struct Gate: Sendable {
    private let stream: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Waits until the gate opens, and returns the value it opened with.
    func pass() async -> Int {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? -1
    }

    func open(with value: Int) {
        continuation.yield(value)
    }
}

/// Code on the main actor awaiting futures, with a non-sendable result.
@MainActor
private final class Profile {
    final class Details {
        let name: String

        init(_ name: String) {
            self.name = name
        }
    }

    private(set) var name = ""

    func load(_ details: Future<Details, Never>) async {
        name = await details.value.name
    }

    func load(_ details: Future<Details, BridgeError>) async throws {
        name = try await details.value.name
    }
}

@Suite(.timeLimit(.minutes(3))) struct FutureConcurrencyTests {
    @Test func valueWaitsForThePromise() async {
        let promise = BridgePromise<Int, Never>()
        let future = Future<Int, Never> { promise.keep($0) }
        DispatchQueue.global().async { promise(.success(42)) }
        #expect(await future.value == 42)
    }

    @Test func valueOfASettledFutureReturnsAtOnceEveryTime() async throws {
        let future = Future<String, BridgeError> { $0(.success("ready")) }
        #expect(try await future.value == "ready")
        #expect(try await future.value == "ready")
    }

    @Test func valueThrowsTheFailure() async {
        let promise = BridgePromise<Int, BridgeError>()
        let future = Future<Int, BridgeError> { promise.keep($0) }
        DispatchQueue.global().async { promise(.failure(BridgeError(2))) }
        await #expect(throws: BridgeError(2)) { try await future.value }
    }

    @Test func severalTasksAwaitingOneFutureAllGetItsValue() async {
        let gate = Gate()
        let future = Future { await gate.pass() }
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { await future.value }
            }
            gate.open(with: 7)
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: 7, count: 8))
    }

    @Test func valueKeepsWaitingWhenItsTaskIsCancelled() async {
        let gate = Gate()
        let future = Future { await gate.pass() }
        let task = Task { await future.value }
        task.cancel()
        gate.open(with: 3)
        #expect(await task.value == 3)
    }

    @Test func asyncInitPublishesWhatTheClosureReturns() async {
        let gate = Gate()
        let future = Future { await gate.pass() * 2 }
        let subscriber = TestSubscriber<Int, Never>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        gate.open(with: 21)
        #expect(await future.value == 42)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func throwingAsyncInitPublishesTheValue() async throws {
        let future = Future { () async throws -> String in "made" }
        #expect(try await future.value == "made")
        let subscriber = TestSubscriber<String, any Error>()
        future.subscribe(subscriber)
        #expect(subscriber.values == ["made"])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func throwingAsyncInitFailsWithWhatTheClosureThrows() async {
        let gate = Gate()
        let future = Future { () async throws -> Int in
            throw BridgeError(await gate.pass())
        }
        let subscriber = TestSubscriber<Int, any Error>()
        future.subscribe(subscriber)
        gate.open(with: 4)
        await #expect(throws: BridgeError(4)) { try await future.value }
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error as? BridgeError == BridgeError(4))
        #expect(subscriber.values == [])
    }

    @Test func aClosureThrowingCancellationErrorFailsTheFuture() async {
        let future = Future { () async throws -> Int in
            try Task.checkCancellation()
            throw CancellationError()
        }
        await #expect(throws: CancellationError.self) { try await future.value }
    }

    @Test func cancellingSubscriptionsNeitherCancelsNorRepeatsTheWork() async {
        let runs = Atomic<Int>(0)
        let gate = Gate()
        let future = Future { () async -> Int in
            runs.add(1, ordering: .relaxed)
            return await gate.pass()
        }
        let early = TestSubscriber<Int, Never>()
        future.subscribe(early)
        early.cancel()
        gate.open(with: 9)
        #expect(await future.value == 9)
        #expect(early.events == [.subscription])
        let late = TestSubscriber<Int, Never>()
        future.subscribe(late)
        #expect(late.events == [.subscription, .value(9), .completion(.finished)])
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func theValueIsRequestedOnlyOnce() async {
        let future = Future<Int, Never> { $0(.success(5)) }
        let requests = Atomic<Int>(0)
        let counted = future.handleEvents(receiveRequest: { demand in
            #expect(demand == .max(1))
            requests.add(1, ordering: .relaxed)
        })
        var received: [Int] = []
        for await value in counted.values { received.append(value) }
        #expect(received == [5])
        #expect(requests.load(ordering: .relaxed) == 1)
        #expect(await future.value == 5)
    }

    @Test func mainActorCodeAwaitsNonSendableValues() async throws {
        let profile = Profile()
        await profile.load(Future<Profile.Details, Never> { $0(.success(Profile.Details("Ada"))) })
        #expect(await profile.name == "Ada")
        try await profile.load(Future<Profile.Details, BridgeError> { $0(.success(Profile.Details("Grace"))) })
        #expect(await profile.name == "Grace")
        await #expect(throws: BridgeError(1)) {
            try await profile.load(Future<Profile.Details, BridgeError> { $0(.failure(BridgeError(1))) })
        }
    }
}
