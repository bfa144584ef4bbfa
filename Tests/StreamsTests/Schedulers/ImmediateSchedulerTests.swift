import Foundation
import Streams
import Testing

private typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride

@Suite(.timeLimit(.minutes(3))) struct ImmediateSchedulerTests {
    @Test func timeDoesNotPass() {
        let scheduler = ImmediateScheduler.shared
        let now = scheduler.now
        #expect(now == scheduler.now)
        #expect(now == now.advanced(by: 100))
        #expect(now.distance(to: now.advanced(by: -1)) == 0)
        #expect(!(now < now.advanced(by: 5)))
        #expect(scheduler.minimumTolerance == 0)
    }

    @Test func strideHoldsAnInteger() {
        #expect(Stride(14).magnitude == 14)
        #expect(Stride(-4).magnitude == -4)
        #expect(Stride(14) == 14.6)
        #expect(Stride(-4) == -4.1)
        #expect(Stride(exactly: 7 as UInt8) == 7)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(1) < Stride(2))
        #expect(Stride(-10) < Stride(2))
    }

    @Test func strideArithmetic() {
        #expect(Stride(-4) * Stride(5) == Stride(-20))
        #expect(Stride(-4) + Stride(5) == Stride(1))
        #expect(Stride(10) - Stride(3) == Stride(7))
        #expect(-Stride(3) == Stride(-3))
        var stride = Stride(-4)
        stride += 5
        #expect(stride == 1)
        stride -= -10
        #expect(stride == 11)
        stride *= 2
        #expect(stride == 22)
    }

    @Test func durationsAreZero() {
        #expect(Stride.seconds(1.2) == 0)
        #expect(Stride.seconds(1_100) == 0)
        #expect(Stride.milliseconds(123) == 0)
        #expect(Stride.microseconds(51) == 0)
        #expect(Stride.nanoseconds(23) == 0)
    }

    @Test func strideCodable() throws {
        let json = try schedulerTestJSON(Stride(-42))
        #expect(json == #"{"value":{"magnitude":-42}}"#)
        #expect(try schedulerTestDecode(Stride.self, from: json) == -42)
    }

    @Test func everyScheduleRunsBeforeReturning() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        log.append("1")
        scheduler.schedule(options: nil) { log.append("options") }
        log.append("2")
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append("after") }
        log.append("3")
        scheduler.schedule(after: scheduler.now, tolerance: 5) { log.append("tolerance") }
        log.append("4")
        scheduler.schedule(after: scheduler.now, tolerance: 5, options: nil) { log.append("all") }
        #expect(log == ["now", "1", "options", "2", "after", "3", "tolerance", "4", "all"])
    }

    @Test func actionsRunOnTheCallingThread() {
        let thread = SchedulerTestBox<Thread?>(nil)
        let done = DispatchSemaphore(value: 0)
        let caller = Thread {
            ImmediateScheduler.shared.schedule { thread.withValue { $0 = Thread.current } }
            done.signal()
        }
        caller.start()
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(thread.value === caller)
    }

    @Test func nestedSchedulingRunsInline() {
        let scheduler = ImmediateScheduler.shared
        var log: [Int] = []
        scheduler.schedule {
            log.append(1)
            scheduler.schedule { log.append(2) }
            log.append(3)
        }
        #expect(log == [1, 2, 3])
    }

    @Test func repeatingActionRunsOnceAndReturnsTheEmptyCancellable() {
        let scheduler = ImmediateScheduler.shared
        var count = 0
        let first = scheduler.schedule(after: scheduler.now, interval: 10) { count += 1 }
        #expect(count == 1)
        let second = scheduler.schedule(after: scheduler.now, interval: 1, tolerance: 0) { count += 1 }
        let third = scheduler.schedule(after: scheduler.now, interval: 1, tolerance: 0, options: nil) { count += 1 }
        #expect(count == 3)
        #expect(String(describing: first) == "Empty")
        #expect(String(describing: second) == "Empty")
        first.cancel()
        third.cancel()
        #expect(count == 3)
    }
}
