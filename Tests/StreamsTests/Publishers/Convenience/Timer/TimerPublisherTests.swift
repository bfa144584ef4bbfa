import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Tests of Foundation's `Timer.publish(every:tolerance:on:in:options:)` and `Timer.TimerPublisher`,
/// on a run loop that a dedicated thread runs. They wait for ticks and for marker timers on that
/// loop, never for a fixed time.
@Suite(.timeLimit(.minutes(3))) struct TimerPublisherTests {
    /// The interval of the timers under test: short, so the tests are quick.
    let interval: TimeInterval = 0.01

    /// Waits until the run loop of `thread` has performed an action scheduled `delay` from now: every
    /// timer due before then has fired by the time this returns.
    func waitForMarker(on thread: SchedulerTestRunLoopThread, after delay: TimeInterval) -> Bool {
        let marker = DispatchSemaphore(value: 0)
        let loop = thread.runLoop
        loop.schedule(after: loop.now.advanced(by: .seconds(delay))) { marker.signal() }
        return marker.wait(timeout: .now() + pacingTimeout) == .success
    }

    // MARK: Configuration

    @Test func publishKeepsItsConfigurationButNotTheToleranceAsCombineDoes() {
        let mode = RunLoop.Mode(rawValue: "testMode")
        let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .main, in: mode, options: nil)
        #expect(publisher.interval == 0.25)
        #expect(publisher.tolerance == nil)
        #expect(publisher.runLoop === RunLoop.main)
        #expect(publisher.mode == mode)
        #expect(publisher.options == nil)

        let explicit = Timer.TimerPublisher(interval: 0.5, tolerance: 0.1, runLoop: .main, mode: .default)
        #expect(explicit.tolerance == 0.1)
        #expect(explicit.mode == .default)
    }

    // MARK: Ticks on a run loop

    @Test func ticksOnceConnectedAndEachSubscriberGetsWhatItAskedFor() throws {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        let publisher = Timer.TimerPublisher(interval: interval, runLoop: thread.runLoop, mode: .default)
        let five = TestSubscriber<Date, Never>(initialDemand: .max(3), demandForValue: { _ in .none })
        let two = TestSubscriber<Date, Never>(initialDemand: .max(2))
        let clock = TestSubscriber<Date, Never>()
        let clockTicks = PacingCounter<Date>()
        five.onReceiveValue { _ in if five.values.count <= 2 { five.request(.max(1)) } }
        clock.onReceiveValue { clockTicks.append($0) }
        for subscriber in [five, two, clock] { publisher.subscribe(subscriber) }

        #expect(waitForMarker(on: thread, after: 3 * interval))
        #expect(clock.events == [.subscription])  // Nothing until connected.

        let connectedAt = Date()
        let connection = publisher.connect()
        #expect(clockTicks.wait(forCount: 8))
        connection.cancel()

        let ticks = clock.values
        #expect(ticks.count >= 8)
        #expect(five.values == Array(ticks.prefix(5)))  // The same dates, for the ticks each asked for.
        #expect(two.values == Array(ticks.prefix(2)))
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 })
        let first = try #require(ticks.first)
        #expect(first.timeIntervalSince(connectedAt) >= interval - 0.001)
        #expect(!(connection is any Subscription))
    }

    @Test func autoconnectStartsOnTheFirstSubscriberAndStopsWhenItCancels() {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        let received = PacingCounter<Date>()
        // The timer runs in the common modes, which include the default mode the loop runs in.
        let publisher = Timer.publish(every: interval, on: thread.runLoop, in: .common).autoconnect()
        let subscriber = TestSubscriber<Date, Never>()
        subscriber.onReceiveValue { date in
            // Cancelled on the loop's thread, inside a tick, so no other tick can be under way.
            if subscriber.values.count == 3 { subscriber.cancel() }
            received.append(date)
        }
        publisher.subscribe(subscriber)
        #expect(received.wait(forCount: 3))
        #expect(waitForMarker(on: thread, after: 5 * interval))
        // The three ticks before the cancel, each one later than the last, and none after.
        #expect(subscriber.values.count == 3)
        #expect(zip(subscriber.values, subscriber.values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(received.values == subscriber.values)
    }

    @Test func cancellingOneConnectionDetachesEverySubscriberButTheOtherTimerRuns() {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        let publisher = Timer.TimerPublisher(interval: interval, runLoop: thread.runLoop, mode: .default)
        let first = publisher.connect()
        let second = publisher.connect()
        let subscriber = TestSubscriber<Date, Never>()
        let received = PacingCounter<Date>()
        subscriber.onReceiveValue { date in
            received.append(date)
            if received.values.count == 2 { first.cancel() }
        }
        publisher.subscribe(subscriber)
        #expect(received.wait(forCount: 2))
        #expect(waitForMarker(on: thread, after: 5 * interval))
        #expect(subscriber.values.count == 2)
        #expect(zip(subscriber.values, subscriber.values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(received.values == subscriber.values)
        #expect(subscriber.completion == nil)

        let late = TestSubscriber<Date, Never>()
        let lateTicks = PacingCounter<Date>()
        late.onReceiveValue { lateTicks.append($0) }
        publisher.subscribe(late)
        #expect(lateTicks.wait(forCount: 2))  // The second connection's timer still runs.
        second.cancel()
        late.cancel()
    }

    @Test func aSubscriberWithoutDemandMissesTicks() {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        let publisher = Timer.TimerPublisher(interval: interval, runLoop: thread.runLoop, mode: .default)
        let idle = TestSubscriber<Date, Never>(initialDemand: .none)
        let clock = TestSubscriber<Date, Never>()
        let clockTicks = PacingCounter<Date>()
        clock.onReceiveValue { clockTicks.append($0) }
        publisher.subscribe(clock)  // First, so it has each tick before `idle` does.
        publisher.subscribe(idle)
        let connection = publisher.connect()
        #expect(clockTicks.wait(forCount: 3))
        let idleTicks = PacingCounter<Date>()
        idle.onReceiveValue { idleTicks.append($0) }
        let requestedAt = clock.values.count
        idle.request(.max(1))
        #expect(idleTicks.wait(forCount: 1))
        connection.cancel()
        // The one tick it asked for is the one under way when it asked, or a later one: the ticks
        // it missed are not replayed.
        #expect(idle.values.count == 1)
        #expect(requestedAt >= 3)
        #expect(clock.values.firstIndex(of: idle.values[0]).map { $0 >= requestedAt - 1 } == true)
    }

    // MARK: Lifetime

    @Test func cancellingReleasesThePublisherAndTheSubscriber() {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        weak var weakPublisher: Timer.TimerPublisher?
        weak var weakSubscriber: TestSubscriber<Date, Never>?
        do {
            let publisher = Timer.TimerPublisher(interval: interval, runLoop: thread.runLoop, mode: .default)
            weakPublisher = publisher
            let subscriber = TestSubscriber<Date, Never>()
            weakSubscriber = subscriber
            let ticks = PacingCounter<Date>()
            subscriber.onReceiveValue { ticks.append($0) }
            publisher.subscribe(subscriber)
            let connection = publisher.connect()
            #expect(ticks.wait(forCount: 1))
            connection.cancel()  // Detaches the subscriber too.
        }
        // The invalidated timer leaves the loop at its next pass.
        #expect(waitForMarker(on: thread, after: 2 * interval))
        #expect(weakPublisher == nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Description

    @Test func itsSubscriptionAndConnectionHaveNoDescriptionsOfTheirOwnAsInCombine() throws {
        let publisher = Timer.TimerPublisher(interval: 60, runLoop: .current, mode: .default)
        let connection = publisher.connect()
        defer { connection.cancel() }
        #expect(!(connection is any CustomStringConvertible))
        #expect(!(connection is any CustomReflectable))
        #expect(!(connection is any CustomPlaygroundDisplayConvertible))
        let subscriber = TestSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is NSObject))
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        subscriber.cancel()
    }

    // MARK: Concurrency

    @Test func subscribersComingAndGoingOnManyThreadsWhileTicking() {
        let thread = SchedulerTestRunLoopThread()
        defer { thread.stop() }
        let publisher = Timer.TimerPublisher(interval: interval, runLoop: thread.runLoop, mode: .default)
        let connection = publisher.connect()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 {
                let visitor = TestSubscriber<Date, Never>()
                publisher.subscribe(visitor)
                visitor.cancel()
            }
        }
        let stayer = TestSubscriber<Date, Never>()
        let ticks = PacingCounter<Date>()
        stayer.onReceiveValue { ticks.append($0) }
        publisher.subscribe(stayer)
        #expect(ticks.wait(forCount: 2))
        connection.cancel()
    }
}
