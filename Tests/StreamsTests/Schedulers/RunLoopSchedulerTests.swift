import Dispatch
import Foundation
import Streams
import Testing

private typealias TimeType = RunLoop.SchedulerTimeType
private typealias Stride = RunLoop.SchedulerTimeType.Stride

@Suite struct RunLoopSchedulerTests {
    // MARK: - Time and stride

    @Test func strideCountsSeconds() {
        #expect(Stride.seconds(2).timeInterval == 2)
        #expect(Stride.seconds(2.25).timeInterval == 2.25)
        #expect(Stride.milliseconds(2).timeInterval == 0.002)
        #expect(Stride.microseconds(2).timeInterval == 2e-6)
        #expect(Stride.nanoseconds(2).timeInterval == 2e-9)
        #expect(Stride.nanoseconds(.max).timeInterval == 9_223_372_036.854_776)
        #expect(Stride(0.5).magnitude == 0.5)
        #expect((2 as Stride).magnitude == 2)
        #expect((1.25 as Stride).magnitude == 1.25)
        #expect(Stride(exactly: 871 as UInt64)?.magnitude == 871)
        #expect(Stride(exactly: UInt64.max) == nil)
    }

    @Test func strideArithmetic() {
        #expect((Stride.seconds(-12) + .milliseconds(7)).magnitude == -11.993)
        #expect((Stride.seconds(-12) - .milliseconds(7)).magnitude == -12.007)
        #expect((Stride.seconds(3) * 2).magnitude == 6)
        #expect((Stride.nanoseconds(18) * .microseconds(1)).magnitude == 1.8e-14)
        #expect(-Stride.seconds(2) == .seconds(-2))
        var stride = Stride.seconds(1)
        stride += .milliseconds(500)
        stride *= 2
        stride -= .seconds(1)
        #expect(stride == .seconds(2))
        #expect(Stride.milliseconds(2) < .seconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
    }

    @Test func distanceAndAdvance() {
        let time = TimeType(Date(timeIntervalSinceReferenceDate: 10_000))
        let later = TimeType(Date(timeIntervalSinceReferenceDate: 10_431))
        #expect(time.distance(to: later).timeInterval == 431)
        #expect(later.distance(to: time).timeInterval == -431)
        #expect(time.advanced(by: .seconds(431)) == later)
        #expect(time.advanced(by: .seconds(-220)).date == Date(timeIntervalSinceReferenceDate: 9_780))
        #expect(time < later)
        #expect(TimeType(.distantPast) < time)
        let beginning = TimeType(Date(timeIntervalSinceReferenceDate: 1))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).date == Date(timeIntervalSinceReferenceDate: 0.999999))
    }

    @Test func codable() throws {
        let time = TimeType(Date(timeIntervalSinceReferenceDate: 1_024.75))
        let timeJSON = try schedulerTestJSON(time)
        #expect(timeJSON == #"{"value":{"date":1024.75}}"#)
        #expect(try schedulerTestDecode(TimeType.self, from: timeJSON) == time)
        let strideJSON = try schedulerTestJSON(Stride.seconds(1_024.5))
        #expect(strideJSON == #"{"value":{"magnitude":1024.5}}"#)
        #expect(try schedulerTestDecode(Stride.self, from: strideJSON) == .seconds(1_024.5))
    }

    @Test func hashable() {
        let time = TimeType(Date(timeIntervalSinceReferenceDate: 5))
        #expect(Set([time, TimeType(Date(timeIntervalSinceReferenceDate: 5)), time.advanced(by: 1)]).count == 2)
    }

    @Test func nowAndMinimumTolerance() {
        let before = Date()
        let now = RunLoop.main.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(RunLoop.main.minimumTolerance == .seconds(0))
    }

    // MARK: - Scheduling

    @Test func scheduleRunsOnTheLoopsThreadAndWakesIt() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let thread = SchedulerTestBox<Thread?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(helper.waitUntilAsleep())
        helper.runLoop.schedule {
            thread.withValue { $0 = Thread.current }
            done.signal()
        }
        // The loop sleeps with no time limit: only a wake-up gets the action performed.
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(thread.value === helper.thread)
    }

    @Test func actionsRunInTheOrderTheyWereScheduled() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let order = SchedulerTestBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let loop = helper.runLoop
        #expect(helper.waitUntilAsleep())
        for index in 0..<100 {
            loop.schedule(options: nil) {
                order.append(index)
                if index == 99 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(order.value == Array(0..<100))
    }

    @Test func scheduleAfterRunsNoEarlierThanTheDate() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let loop = helper.runLoop
        let date = loop.now.advanced(by: .milliseconds(50))
        let observed = SchedulerTestBox<(date: Date, thread: Thread)?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.schedule(after: date, tolerance: .milliseconds(1), options: nil) {
            observed.withValue { $0 = (Date(), Thread.current) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(observed.value.map { $0.date >= date.date } == true)
        #expect(observed.value?.thread === helper.thread)
    }

    @Test func scheduleAfterConvenienceUsesTheDate() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let loop = helper.runLoop
        let date = loop.now.advanced(by: .milliseconds(20))
        let ranAt = SchedulerTestBox<Date?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.schedule(after: date) {
            ranAt.withValue { $0 = Date() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(ranAt.value.map { $0 >= date.date } == true)
    }

    @Test func repeatingTimerFiresUntilCancelled() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let loop = helper.runLoop
        let fires = SchedulerTestBox<[Date]>([])
        let wrongThread = SchedulerTestBox(false)
        let tick = DispatchSemaphore(value: 0)
        let start = loop.now.advanced(by: .milliseconds(20))
        let cancellable = loop.schedule(after: start, interval: .milliseconds(10)) {
            fires.withValue { $0.append(Date()) }
            if Thread.current !== helper.thread { wrongThread.withValue { $0 = true } }
            tick.signal()
        }
        for _ in 0..<3 {
            #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        }
        #expect(cancellable is AnyCancellable)
        // Cancel on the loop's own thread, between two fires, so no fire is under way.
        let cancelled = DispatchSemaphore(value: 0)
        loop.schedule {
            cancellable.cancel()
            cancelled.signal()
        }
        #expect(cancelled.wait(timeout: .now() + schedulerTestTimeout) == .success)
        let countAtCancel = fires.value.count
        for _ in 3..<countAtCancel {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(80)) == .timedOut)
        #expect(fires.value.count == countAtCancel)
        #expect(!wrongThread.value)
        #expect(fires.value.first.map { $0 >= start.date } == true)
    }

    @Test func releasingTheCancellableInvalidatesTheTimer() {
        let helper = SchedulerTestRunLoopThread()
        defer { helper.stop() }
        let loop = helper.runLoop
        let count = SchedulerTestBox(0)
        let tick = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let holder = SchedulerTestBox<(any Cancellable)?>(nil)
        holder.withValue {
            $0 = loop.schedule(after: loop.now, interval: .milliseconds(5), tolerance: .zero, options: nil) {
                count.withValue { $0 += 1 }
                tick.signal()
            }
        }
        #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        loop.schedule {
            holder.withValue { $0 = nil }
            released.signal()
        }
        #expect(released.wait(timeout: .now() + schedulerTestTimeout) == .success)
        let countAtRelease = count.value
        for _ in 1..<countAtRelease {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(60)) == .timedOut)
        #expect(count.value == countAtRelease)
    }
}
