import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ImmediateTestSchedulerTests {
    @Test func everyActionRunsBeforeScheduleReturns() {
        let scheduler = DispatchQueue.immediate
        let start = scheduler.now
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        log.append("after now")
        scheduler.schedule(after: start.advanced(by: .seconds(10))) { log.append("later") }
        log.append("after later")
        let cancellable = scheduler.schedule(after: start.advanced(by: .seconds(20)), interval: .seconds(1)) {
            log.append("repeating")
        }
        log.append("after repeating")
        cancellable.cancel()
        #expect(log == ["now", "after now", "later", "after later", "repeating", "after repeating"])
    }

    @Test func workScheduledFromAnActionRunsInsideItDepthFirst() {
        let scheduler = DispatchQueue.immediate
        var log: [String] = []
        scheduler.schedule {
            log.append("outer begins")
            scheduler.schedule {
                log.append("inner begins")
                scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("innermost") }
                log.append("inner ends")
            }
            log.append("outer ends")
        }
        #expect(log == ["outer begins", "inner begins", "innermost", "inner ends", "outer ends"])
    }

    @Test func theClockJumpsToEachDelayedActionsDate() {
        let scheduler = DispatchQueue.immediate
        let start = scheduler.now
        var seen: [DispatchStride] = []
        scheduler.schedule(after: start.advanced(by: .seconds(5))) { seen.append(start.distance(to: scheduler.now)) }
        #expect(start.distance(to: scheduler.now) == .seconds(5))
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(250))) {
            seen.append(start.distance(to: scheduler.now))
        }
        _ = scheduler.schedule(after: start.advanced(by: .seconds(7)), interval: .seconds(1)) {
            seen.append(start.distance(to: scheduler.now))
        }
        #expect(seen == [.seconds(5), .milliseconds(5250), .seconds(7)])
    }

    @Test func anEarlierDateDoesNotTurnTheClockBack() {
        let scheduler = RunLoop.immediate
        let start = scheduler.now
        scheduler.schedule(after: start.advanced(by: 3)) {}
        var ran = false
        scheduler.schedule(after: start.advanced(by: 1)) { ran = true }
        #expect(ran)
        #expect(start.distance(to: scheduler.now) == 3)
        scheduler.schedule {}
        #expect(start.distance(to: scheduler.now) == 3)
    }

    @Test func theFlavoursStartWhereTheTestSchedulersDo() {
        #expect(DispatchQueue.immediate.now == DispatchQueue.test.now)
        #expect(DispatchQueue.immediate.now.dispatchTime.uptimeNanoseconds == 1)
        #expect(RunLoop.immediate.now.date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(OperationQueue.immediate.now.date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(DispatchQueue.immediate.minimumTolerance == .zero)
    }

    @Test func erasedImmediateSchedulersRunAtOnceAndKeepTheirClock() {
        let dispatch: AnySchedulerOf<DispatchQueue> = .immediate
        let runLoop: AnySchedulerOf<RunLoop> = .immediate
        let operations: AnySchedulerOf<OperationQueue> = .immediate
        var log: [String] = []
        let start = dispatch.now
        dispatch.schedule(after: start.advanced(by: .seconds(2))) { log.append("dispatch") }
        runLoop.schedule { log.append("run loop") }
        operations.schedule(after: operations.now.advanced(by: 1)) { log.append("operations") }
        #expect(log == ["dispatch", "run loop", "operations"])
        #expect(start.distance(to: dispatch.now) == .seconds(2))
        #expect(operations.now.date == Date(timeIntervalSinceReferenceDate: 1))
    }

    @Test func aCustomStartingInstant() {
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 5_000))
        let scheduler = ImmediateSchedulerOf<DispatchQueue>(now: start)
        #expect(scheduler.now == start)
        scheduler.schedule(after: start.advanced(by: .nanoseconds(10))) {}
        #expect(scheduler.now.dispatchTime.uptimeNanoseconds == 5_010)
    }

    @Test func aSubjectDeliveringThroughTheSchedulerIsSynchronous() {
        let scheduler: AnySchedulerOf<DispatchQueue> = .immediate
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.sink { value in scheduler.schedule { received.append(value) } }
        subject.send(1)
        subject.send(2)
        #expect(received == [1, 2])
        cancellable.cancel()
    }

    @Test func schedulingFromManyThreadsKeepsTheLatestDate() {
        let scheduler = DispatchQueue.immediate
        let start = scheduler.now
        let counter = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                scheduler.schedule(after: start.advanced(by: .milliseconds(thread * 250 + index))) {
                    counter.increment()
                }
            }
        }
        #expect(counter.value == 1_000)
        #expect(start.distance(to: scheduler.now) == .milliseconds(999))
    }
}

/// A counter that any thread may increment.
final class LockedCounter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}
