import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A search screen's model: its query is debounced on a scheduler, and each search waits on a clock
/// (the service's latency), the way production code mixes publishers and `async` work.
@MainActor
private final class SearchModel {
    @Published var query = ""
    private(set) var results: [String] = []
    private(set) var searches = 0
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: AnySchedulerOf<DispatchQueue>, clock: any Clock<Duration>) {
        $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { [weak self] query in
                Task { @MainActor in
                    try await clock.sleep(for: .seconds(1))  // the service answers after a second
                    self?.searches += 1
                    self?.results = [query.uppercased()]
                }
            }
            .store(in: &cancellables)
    }
}

/// Asks a server, and tries again a second later when a request fails (the tutorial's service).
private struct RetryingService: Sendable {
    let clock: any Clock<Duration>
    let fetch: @Sendable (String) async throws -> [String]

    func search(_ query: String) async -> [String] {
        for attempt in 1...3 {
            if let results = try? await fetch(query) { return results }
            if attempt < 3 { try? await clock.sleep(for: .seconds(1)) }
        }
        return []
    }
}

/// The synchronous advance, which an `async` test would not pick on its own.
private func advanceWithoutWaiting(_ scheduler: TestSchedulerOf<DispatchQueue>, by stride: DispatchStride) {
    scheduler.advance(by: stride)
}

/// A test scheduler's clock shares its virtual time. The tests and the tasks they start run on the
/// main actor.
@Suite @MainActor struct SharedVirtualTimeTests {
    @Test func everyUseOfClockIsTheSameClock() {
        let scheduler = DispatchQueue.test
        #expect(scheduler.clock === scheduler.clock)
        let immediate = DispatchQueue.immediate
        #expect(immediate.clock === immediate.clock)
    }

    @Test func oneAdvanceRunsActionsAndWakesSleepsInOrderOfTheirInstants() async throws {
        let scheduler = DispatchQueue.test
        let clock = scheduler.clock
        let log = ClockLog()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            log.entries.append("action@\(clock.now.offset)")
        }
        let sleeper = Task {
            try await clock.sleep(for: .seconds(2))
            log.entries.append("sleep@\(clock.now.offset)")
        }
        await untilSleeping(1, on: clock)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) {
            log.entries.append("action@\(clock.now.offset)")
        }
        await scheduler.advance(by: .seconds(3))
        #expect(log.entries == ["action@1.0 seconds", "sleep@2.0 seconds", "action@3.0 seconds"])
        try await sleeper.value
    }

    @Test func advancingTheClockRunsTheSchedulersActions() async {
        let scheduler = DispatchQueue.test
        let log = ClockLog()
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1500))) { log.entries.append("due") }
        await scheduler.clock.advance(by: .seconds(1))
        #expect(log.entries.isEmpty)
        await scheduler.clock.advance(by: .milliseconds(500))
        #expect(log.entries == ["due"])
        #expect(scheduler.elapsed == .milliseconds(1500))
    }

    @Test func theSynchronousAdvanceWakesSleepsToo() async throws {
        let scheduler = DispatchQueue.test
        let clock = scheduler.clock
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await untilSleeping(1, on: clock)
        advanceWithoutWaiting(scheduler, by: .seconds(1))
        #expect(clock.sleepCount == 0)
        try await sleeper.value
    }

    @Test func theClocksTimeIsTheSchedulersElapsedTime() {
        let dispatch = DispatchQueue.test
        dispatch.advance(by: .nanoseconds(1_234_567_891))
        #expect(dispatch.clock.now.offset == .nanoseconds(1_234_567_891))
        let runLoop = RunLoop.test
        runLoop.advance(by: .seconds(1.5))
        #expect(runLoop.clock.now.offset == .milliseconds(1500))
        let operations = OperationQueue.test
        operations.advance(by: .milliseconds(250))
        #expect(operations.clock.now.offset == .milliseconds(250))
    }

    @Test func aRunLoopSchedulersClockSleepsToTheNanosecond() async throws {
        let scheduler = RunLoop.test
        let clock = scheduler.clock
        let sleeper = Task { try await clock.sleep(for: .milliseconds(100)) }
        await untilSleeping(1, on: clock)
        await scheduler.advance(by: .milliseconds(99))
        #expect(clock.sleepCount == 1)
        await scheduler.advance(by: .milliseconds(1))
        #expect(clock.sleepCount == 0)
        try await sleeper.value
    }

    @Test func runningTheClockRunsTheSchedulersActionsAndCheckingSuspensionCountsOnlySleeps() async throws {
        let scheduler = DispatchQueue.test
        let clock = scheduler.clock
        let log = ClockLog()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.entries.append("due") }
        try await clock.checkSuspension()  // an action is not a sleep
        await clock.run(timeout: .seconds(60))  // real time: generous for a loaded machine
        #expect(log.entries == ["due"])
        #expect(clock.now.offset == .seconds(10))
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theSchedulersRunWakesTheClocksSleeps() async throws {
        let scheduler = DispatchQueue.test
        let clock = scheduler.clock
        let ticks = Task {
            var offsets: [Duration] = []
            for await instant in clock.timer(interval: .seconds(2)).prefix(3) { offsets.append(instant.offset) }
            return offsets
        }
        await untilSleeping(1, on: clock)
        await scheduler.run()
        #expect(await ticks.value == [.seconds(2), .seconds(4), .seconds(6)])
    }

    @Test func oneAdvanceDrivesAModelsPublishersAndItsAsyncWork() async {
        let scheduler = DispatchQueue.test
        let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler(), clock: scheduler.clock)
        model.query = "stre"
        await scheduler.advance(by: .milliseconds(200))
        model.query = "streams"
        await scheduler.advance(by: .milliseconds(300))  // the debounce fires: the search starts
        await untilSleeping(1, on: scheduler.clock)
        #expect(model.searches == 0)
        await scheduler.advance(by: .milliseconds(999))
        #expect(model.results == [])
        await scheduler.advance(by: .milliseconds(1))  // the service answers
        #expect(model.results == ["STREAMS"])
        #expect(model.searches == 1)
    }

    @Test func anImmediateSchedulersClockMovesTheSchedulersTime() async throws {
        let scheduler = DispatchQueue.immediate
        let start = scheduler.now
        try await scheduler.clock.sleep(for: .seconds(3))
        #expect(start.distance(to: scheduler.now) == .seconds(3))
        #expect(scheduler.clock.now.offset == .seconds(3))
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {}
        #expect(scheduler.clock.now.offset == .seconds(5))
    }

    @Test func theSchedulerAndItsClockAreFreedTogether() async throws {
        weak var weakScheduler: TestSchedulerOf<DispatchQueue>?
        weak var weakClock: TestClock<Duration>?
        do {
            let scheduler = DispatchQueue.test
            let clock = scheduler.clock
            weakScheduler = scheduler
            weakClock = clock
            let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
            await untilSleeping(1, on: clock)
            await scheduler.advance(by: .seconds(1))
            try await sleeper.value
        }
        #expect(weakScheduler == nil)
        #expect(weakClock == nil)
    }

    @Test func aDebounceAndAnAsyncRetryInAFutureShareOneAdvance() async {
        let scheduler = DispatchQueue.test
        let attempts = LockedCount()
        let service = RetryingService(clock: scheduler.clock) { query in
            if attempts.increment() == 1 { throw CancellationError() }
            return ["\(query) result"]
        }
        let query = PassthroughSubject<String, Never>()
        let results = scheduler.record(
            query
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .map { query in Future { await service.search(query) } }
                .switchToLatest()
                .receive(on: scheduler)
        )
        query.send("swift")
        await scheduler.advance(by: .milliseconds(300))
        #expect(attempts.value == 1)
        #expect(results.values == [])
        await scheduler.advance(by: .seconds(1))
        #expect(attempts.value == 2)
        #expect(results.valuesWithTimes == [.init(["swift result"], at: .milliseconds(1300))])
    }

    @Test func aRepetitionThatNeverMovesOnIsReportedAtTheClockCallThatRanIt() async {
        let scheduler = DispatchQueue.test
        func repeatingAtOneInstant() -> any Cancellable {
            scheduler.schedule(after: scheduler.now, interval: .zero, tolerance: .zero, options: nil) {}
        }
        let clock = scheduler.clock
        var repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await clock.advance(by: .seconds(1)) }
        repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await clock.advance(to: clock.now.advanced(by: .seconds(1))) }
        repetition = repeatingAtOneInstant()
        await expectReported(atLine: #line) { await clock.run() }
        repetition.cancel()
    }
}

/// A thread-safe counter.
private final class LockedCount: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    func increment() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }

    var value: Int { count.withLock { $0 } }
}
