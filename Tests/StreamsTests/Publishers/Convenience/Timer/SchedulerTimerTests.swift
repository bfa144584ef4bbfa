import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Tests of `SchedulerTimer`, the connectable timer that runs on any scheduler.
@Suite(.timeLimit(.minutes(3))) struct SchedulerTimerTests {
    typealias Time = DispatchQueue.SchedulerTimeType

    // MARK: Ticks at exact virtual times

    @Test func ticksEveryIntervalOnceConnectedWithTheSchedulersTime() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = SchedulerTimer(every: .seconds(1), scheduler: scheduler)
        let subscriber = TestSubscriber<Time, Never>()
        timer.subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])  // Nothing before connect.

        let connection = timer.connect()  // t = 5 s: first tick at 6 s.
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [6_000])
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [6_000, 7_000, 8_000, 9_000])
        connection.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [6_000, 7_000, 8_000, 9_000])
        #expect(subscriber.completion == nil)
    }

    // MARK: Its own name, outside Combine's namespaces

    @Test func timerPublisherMakesATopLevelSchedulerTimer() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer: SchedulerTimer<TestSchedulerOf<DispatchQueue>> = scheduler.timerPublisher(every: .seconds(3))
        #expect(String(reflecting: type(of: timer)).hasPrefix("Streams.SchedulerTimer<"))
        var offsets: [Int] = []
        let cancellable = timer.autoconnect().sink { offsets.append(start.distance(to: $0).magnitude) }
        scheduler.advance(by: .seconds(10))
        #expect(offsets == [3_000_000_000, 6_000_000_000, 9_000_000_000])
        cancellable.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aThousandSecondsOfTicksInOneAdvance() {
        let scheduler = DispatchQueue.test
        var output: [Int] = []
        let cancellable = scheduler.timerPublisher(every: 1)
            .autoconnect()
            .sink { _ in output.append(output.count) }
        scheduler.advance(by: 1)
        #expect(output == [0])
        scheduler.advance(by: 1)
        #expect(output == [0, 1])
        scheduler.advance(by: 1_000)
        #expect(output == Array(0...1_001))
        cancellable.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func worksOnARunLoopTestScheduler() {
        let scheduler = RunLoop.test
        let subscriber = TestSubscriber<RunLoop.SchedulerTimeType, Never>()
        let timer = scheduler.timerPublisher(every: .milliseconds(250))
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(1))
        #expect(
            subscriber.values.map(\.date.timeIntervalSinceReferenceDate) == [0.25, 0.5, 0.75, 1])
        connection.cancel()
    }

    @Test func theDocumentationExampleHolds() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = SchedulerTimer(every: .seconds(2), scheduler: scheduler)
        var printed: [Int] = []
        let cancellable = timer.sink { printed.append(start.distance(to: $0).magnitude) }
        let connection = timer.connect()
        scheduler.advance(by: .seconds(5))
        connection.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(printed == [2_000_000_000, 4_000_000_000])
        cancellable.cancel()
    }

    // MARK: Demand

    @Test func aTickWithoutDemandIsDropped() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>(initialDemand: .max(2))
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [1_000, 2_000])
        subscriber.request(.max(1))
        // Missed ticks are not replayed.
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [1_000, 2_000])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.map { $0.milliseconds(since: start) } == [1_000, 2_000, 6_000])
        connection.cancel()
    }

    @Test func eachSubscriberHasItsOwnDemandAndAllSeeTheSameTime() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let one = TestSubscriber<Time, Never>(initialDemand: .max(1))
        let two = TestSubscriber<Time, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        let three = TestSubscriber<Time, Never>(initialDemand: .none)
        for subscriber in [one, two, three] { timer.subscribe(subscriber) }
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(one.values.map { $0.milliseconds(since: start) } == [1_000])
        #expect(two.values.map { $0.milliseconds(since: start) } == [1_000, 2_000, 3_000])
        #expect(three.values.isEmpty)
        #expect(one.values.first == two.values.first)
        connection.cancel()
    }

    // MARK: Connections

    @Test func releasingTheConnectionDoesNotStopTheTimer() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>()
        timer.subscribe(subscriber)
        _ = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 3)
        subscriber.cancel()
    }

    @Test func eachConnectStartsATimerAndCancellingOneDetachesEverySubscriber() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>()
        timer.subscribe(subscriber)
        let first = timer.connect()
        scheduler.advance(by: .milliseconds(500))
        let second = timer.connect()
        scheduler.advance(by: .seconds(2))  // Ticks at 1, 1.5, 2 and 2.5 s.
        #expect(subscriber.values.count == 4)
        #expect(scheduler.scheduledCount == 2)
        first.cancel()
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.count == 4)  // Detached, though the second timer still runs.
        #expect(subscriber.completion == nil)

        let late = TestSubscriber<Time, Never>()
        timer.subscribe(late)
        scheduler.advance(by: .seconds(1))
        #expect(late.values.count == 1)
        second.cancel()
        first.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancellingASubscriptionDetachesOnlyThatSubscriber() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let leaving = TestSubscriber<Time, Never>()
        let staying = TestSubscriber<Time, Never>()
        timer.subscribe(leaving)
        timer.subscribe(staying)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(1))
        leaving.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(leaving.values.count == 1)
        #expect(staying.values.count == 3)
        #expect(scheduler.scheduledCount == 1)  // Subscribers leaving do not stop the timer.
        connection.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    // MARK: Lifetime

    @Test func cancellingTheConnectionReleasesTheTimerAndItsSubscribers() {
        let scheduler = DispatchQueue.test
        weak var weakTimer: SchedulerTimer<TestSchedulerOf<DispatchQueue>>?
        weak var weakSubscriber: TestSubscriber<Time, Never>?
        do {
            let timer = scheduler.timerPublisher(every: .seconds(1))
            weakTimer = timer
            let subscriber = TestSubscriber<Time, Never>()
            weakSubscriber = subscriber
            timer.subscribe(subscriber)
            let connection = timer.connect()
            scheduler.advance(by: .seconds(1))
            connection.cancel()
        }
        #expect(scheduler.scheduledCount == 0)
        #expect(weakTimer == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func cancellingTheSubscriptionReleasesTheSubscriber() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let connection = timer.connect()
        weak var weakSubscriber: TestSubscriber<Time, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Time, Never>()
            weakSubscriber = subscriber
            timer.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            scheduler.advance(by: .seconds(1))
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        connection.cancel()
    }

    // MARK: Re-entrancy

    @Test func cancellingFromInsideReceiveStopsThatSubscriber() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 1)
        connection.cancel()
    }

    @Test func requestingFromInsideReceiveKeepsTicksComing() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 3)
        connection.cancel()
    }

    @Test func cancellingTheConnectionFromInsideReceiveStopsTheTimer() {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>()
        var connection: (any Cancellable)?
        subscriber.onReceiveValue { _ in connection?.cancel() }
        timer.subscribe(subscriber)
        connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 1)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aSubscriberAttachingFromInsideReceiveGetsTheNextTick() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let first = TestSubscriber<Time, Never>()
        let second = TestSubscriber<Time, Never>()
        first.onReceiveValue { _ in
            if first.values.count == 1 { timer.subscribe(second) }
        }
        timer.subscribe(first)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(2))
        #expect(first.values.map { $0.milliseconds(since: start) } == [1_000, 2_000])
        #expect(second.values.map { $0.milliseconds(since: start) } == [2_000])
        connection.cancel()
    }

    // MARK: Configuration and description

    @Test func passesIntervalToleranceAndOptionsToTheScheduler() {
        let scheduler = PacingRecordingScheduler()
        let exact = SchedulerTimer(every: .nanoseconds(100), scheduler: scheduler, options: "ticks")
        let loose = scheduler.timerPublisher(every: .nanoseconds(200), tolerance: .nanoseconds(30))
        #expect(exact.tolerance == nil)
        #expect(exact.options == "ticks")
        #expect(loose.interval == .nanoseconds(200))
        #expect(loose.tolerance == .nanoseconds(30))
        let first = exact.connect()
        let second = loose.connect()
        #expect(
            scheduler.calls == [
                .every(100, interval: 100, tolerance: 7, options: "ticks"),
                .every(200, interval: 200, tolerance: 30, options: nil),
            ])
        first.cancel()
        second.cancel()
    }

    @Test func describesItsSubscription() throws {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .seconds(2), tolerance: .seconds(1))
        let subscriber = TestSubscriber<Time, Never>()
        timer.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Timer")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Timer")
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["downstream", "interval", "tolerance"])
        #expect(mirror.descendant("interval") as? DispatchQueue.SchedulerTimeType.Stride == .seconds(2))
        subscriber.cancel()
    }

    // MARK: Real schedulers and threads

    @Test func ticksOnARealDispatchQueue() {
        let queue = DispatchQueue(label: "timer")
        let ticks = PacingCounter<DispatchQueue.SchedulerTimeType>()
        let cancellable = queue.timerPublisher(every: .milliseconds(10))
            .autoconnect()
            .sink { ticks.append($0) }
        #expect(ticks.wait(forCount: 3))
        cancellable.cancel()
        let values = ticks.values
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func subscribersComingAndGoingOnManyThreadsWhileTicking() {
        // A run-loop test scheduler: its time and options are Sendable, so the timer is too.
        let scheduler = RunLoop.test
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let connection = timer.connect()
        let stayers = (0..<8).map { _ in TestSubscriber<RunLoop.SchedulerTimeType, Never>() }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            timer.subscribe(stayers[index])
            for _ in 0..<100 {
                let visitor = TestSubscriber<RunLoop.SchedulerTimeType, Never>()
                timer.subscribe(visitor)
                visitor.cancel()
            }
        }
        scheduler.advance(by: .seconds(3))
        #expect(stayers.allSatisfy { $0.values.count == 3 })
        connection.cancel()
    }
}
