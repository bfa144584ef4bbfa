import Dispatch
import Foundation
import Streams
import Testing

/// The error a ``CountingAsyncSequence`` fails with.
struct CountingError: Error, Equatable {}

/// An asynchronous sequence of 0, 1, 2, … that counts the calls to its iterators' `next()`, records
/// the priority and executor each call ran with, and can fail at a given element.
struct CountingAsyncSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = CountingError

    /// What the iterators of one sequence did, shared by them.
    final class Log: Sendable {
        private let state = LockedState<(nextCalls: Int, priorities: [TaskPriority], onQueue: [Bool])>((0, [], []))

        var nextCalls: Int { state.withLock { $0.nextCalls } }
        var priorities: [TaskPriority] { state.withLock { $0.priorities } }
        var onQueue: [Bool] { state.withLock { $0.onQueue } }

        func recordCall() {
            let priority = Task.currentPriority
            let onQueue = DispatchQueue.getSpecific(key: QueueTaskExecutor.key) == true
            state.withLock {
                $0.nextCalls += 1
                $0.priorities.append(priority)
                $0.onQueue.append(onQueue)
            }
        }
    }

    let count: Int?
    let failAt: Int?
    let log = Log()

    init(count: Int?, failAt: Int? = nil) {
        self.count = count
        self.failAt = failAt
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: CountingAsyncSequence
        var index = 0

        mutating func next() async throws(CountingError) -> Int? {
            sequence.log.recordCall()
            if let failAt = sequence.failAt, index == failAt { throw CountingError() }
            if let count = sequence.count, index >= count { return nil }
            defer { index += 1 }
            return index
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }
}

/// A sequence whose iterator, asked for an element, says so, waits at a gate, then returns 7 whether
/// or not its task was cancelled meanwhile; it says when the iterator goes away.
struct GatedSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    /// Lets one waiter through once opened.
    final class Gate: Sendable {
        private let state = LockedState<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func wait() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    if state.isOpen { return true }
                    state.waiter = continuation
                    return false
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.isOpen = true
                return state.waiter.take()
            }?.resume()
        }
    }

    /// Says on deinitialization that the iterator holding it is gone.
    final class Farewell: Sendable {
        let say: AsyncStream<Void>.Continuation

        init(_ say: AsyncStream<Void>.Continuation) {
            self.say = say
        }

        deinit {
            say.yield()
        }
    }

    let gate = Gate()
    let entered: AsyncStream<Void>
    let enteredContinuation: AsyncStream<Void>.Continuation
    let iteratorGone: AsyncStream<Void>
    let iteratorGoneContinuation: AsyncStream<Void>.Continuation

    init() {
        (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        (iteratorGone, iteratorGoneContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: GatedSequence
        let farewell: Farewell

        mutating func next() async -> Int? {
            sequence.enteredContinuation.yield()
            await sequence.gate.wait()
            return 7
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, farewell: Farewell(iteratorGoneContinuation))
    }
}

/// A task executor that runs its jobs on a dispatch queue marked with ``key``.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `queue` is a serial dispatch queue, itself thread-safe.
    static let key = DispatchSpecificKey<Bool>()
    let queue = DispatchQueue(label: "AsyncSequencePublisherTests.executor")

    init() {
        queue.setSpecific(key: Self.key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A subscriber that records what it receives and lets an async test wait for a number of events,
/// without sleeping: each recorded event wakes the waiters.
final class AwaitableRecorder<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: `state` is guarded by its lock; `subscription` is set once, before any
    // test reads it.
    private let state = LockedState<(events: [String], waiters: [(Int, CheckedContinuation<[String], Never>)])>(
        ([], []))
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private(set) var subscription: (any Subscription)?

    init(initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var events: [String] { state.withLock { $0.events } }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record("\(input)")
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: record("finished")
        case .failure(let error): record("failed \(error)")
        }
    }

    private func record(_ event: String) {
        let ready = state.withLock { state -> [(CheckedContinuation<[String], Never>, [String])] in
            state.events.append(event)
            let events = state.events
            let (due, waiting) = (
                state.waiters.filter { $0.0 <= events.count }, state.waiters.filter { $0.0 > events.count }
            )
            state.waiters = waiting
            return due.map { ($0.1, events) }
        }
        for (continuation, events) in ready { continuation.resume(returning: events) }
    }

    /// Waits until at least `count` events have been recorded, and returns them.
    func waitForEvents(_ count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let events = state.withLock { state -> [String]? in
                if state.events.count >= count { return state.events }
                state.waiters.append((count, continuation))
                return nil
            }
            if let events { continuation.resume(returning: events) }
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct AsyncSequencePublisherTests {
    @Test func oneElementIsPulledPerUnitOfDemandAndNothingAhead() async throws {
        let sequence = CountingAsyncSequence(count: 5)
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .max(2))
        sequence.publisher.subscribe(recorder)
        #expect(await recorder.waitForEvents(2) == ["0", "1"])
        #expect(sequence.log.nextCalls == 2, "the iterator is not asked for a third element nobody wants")
        let subscription = try #require(recorder.subscription)
        subscription.request(.max(1))
        #expect(await recorder.waitForEvents(3) == ["0", "1", "2"])
        #expect(sequence.log.nextCalls == 3)
        subscription.request(.unlimited)
        #expect(await recorder.waitForEvents(6) == ["0", "1", "2", "3", "4", "finished"])
        #expect(sequence.log.nextCalls == 6, "five elements, then the end")
    }

    @Test func demandReturnedFromAValueKeepsTheIterationGoing() async {
        let sequence = CountingAsyncSequence(count: 3)
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .max(1), demandPerValue: .max(1))
        sequence.publisher.subscribe(recorder)
        #expect(await recorder.waitForEvents(4) == ["0", "1", "2", "finished"])
    }

    @Test func aThrowingSequenceFailsWithItsOwnErrorType() async {
        let sequence = CountingAsyncSequence(count: nil, failAt: 2)
        let publisher: AsyncSequencePublisher<CountingAsyncSequence> = sequence.publisher
        #expect(AsyncSequencePublisher<CountingAsyncSequence>.Failure.self == CountingError.self)
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .unlimited)
        publisher.subscribe(recorder)
        #expect(await recorder.waitForEvents(3) == ["0", "1", "failed CountingError()"])
    }

    @Test func aSequenceThatCannotThrowMakesAPublisherThatCannotFail() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let publisher: some Publisher<Int, Never> = stream.publisher
        let recorder = AwaitableRecorder<Int, Never>(initialDemand: .unlimited)
        publisher.map { $0 * 10 }.subscribe(recorder)
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        #expect(await recorder.waitForEvents(3) == ["10", "20", "finished"])
    }

    @Test func cancellingStopsTheIteratingTaskAndLetsGoOfTheSubscriber() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        continuation.onTermination = { _ in terminated.yield() }
        weak var weakRecorder: AwaitableRecorder<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = AwaitableRecorder<Int, Never>(initialDemand: .unlimited)
            weakRecorder = recorder
            stream.publisher.subscribe(recorder)
            continuation.yield(1)
            #expect(await recorder.waitForEvents(1) == ["1"])
            subscription = recorder.subscription
        }
        // The task is now waiting inside the stream's `next()`, for an element that never comes.
        try #require(subscription).cancel()
        var termination = terminations.makeAsyncIterator()
        await termination.next()
        #expect(weakRecorder == nil, "nothing keeps the subscriber once the iteration has ended")
        guard case .terminated = continuation.yield(2) else {
            Issue.record("cancelling the task should have ended the stream's iteration")
            return
        }
    }

    @Test func anElementTheIteratorReturnsAfterTheCancelIsNotDelivered() async throws {
        let sequence = GatedSequence()
        let recorder = AwaitableRecorder<Int, Never>(initialDemand: .unlimited)
        sequence.publisher.subscribe(recorder)
        var entered = sequence.entered.makeAsyncIterator()
        await entered.next()
        try #require(recorder.subscription).cancel()
        sequence.gate.open()
        var iteratorGone = sequence.iteratorGone.makeAsyncIterator()
        await iteratorGone.next()
        #expect(recorder.events == [], "the element the iterator returned after the cancel was dropped")
    }

    @Test func eachSubscriptionIteratesOnItsOwn() async {
        let sequence = CountingAsyncSequence(count: 3)
        let recorders = (0..<3).map { _ in AwaitableRecorder<Int, CountingError>(initialDemand: .unlimited) }
        for recorder in recorders { sequence.publisher.subscribe(recorder) }
        for recorder in recorders {
            #expect(await recorder.waitForEvents(4) == ["0", "1", "2", "finished"])
        }
        #expect(sequence.log.nextCalls == 12)
    }

    @Test func requestsFromSeveralThreadsPullExactlyWhatWasAskedFor() async throws {
        let sequence = CountingAsyncSequence(count: nil)
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .none)
        sequence.publisher.subscribe(recorder)
        nonisolated(unsafe) let subscription = try #require(recorder.subscription)
        // Requests may come from any thread: the subscription is thread-safe, though not `Sendable`
        // as a protocol type.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 { subscription.request(.max(1)) }
        }
        let events = await recorder.waitForEvents(1_000)
        #expect(events == (0..<1_000).map(String.init))
        #expect(sequence.log.nextCalls == 1_000)
        subscription.cancel()
    }

    @Test func theIterationRunsWithTheChosenPriority() async {
        let sequence = CountingAsyncSequence(count: 1)
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .unlimited)
        sequence.publisher(priority: .low).subscribe(recorder)
        #expect(await recorder.waitForEvents(2) == ["0", "finished"])
        #expect(sequence.log.priorities == [.low, .low])
    }

    @Test func theIterationRunsOnTheChosenExecutor() async {
        let sequence = CountingAsyncSequence(count: 2)
        let executor = QueueTaskExecutor()
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .unlimited)
        sequence.publisher(on: executor).subscribe(recorder)
        #expect(await recorder.waitForEvents(3) == ["0", "1", "finished"])
        #expect(sequence.log.onQueue == [true, true, true])
        let elsewhere = CountingAsyncSequence(count: 1)
        let other = AwaitableRecorder<Int, CountingError>(initialDemand: .unlimited)
        elsewhere.publisher.subscribe(other)
        #expect(await other.waitForEvents(2) == ["0", "finished"])
        #expect(elsewhere.log.onQueue == [false, false])
    }

    @Test func theSubscriptionIsNamedAfterThePublisher() {
        let recorder = AwaitableRecorder<Int, CountingError>(initialDemand: .none)
        CountingAsyncSequence(count: 1).publisher.subscribe(recorder)
        #expect(recorder.subscription.map(String.init(describing:)) == "AsyncSequencePublisher")
        recorder.subscription?.cancel()
    }
}
