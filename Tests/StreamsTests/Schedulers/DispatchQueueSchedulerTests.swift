import Dispatch
import Foundation
import Streams
import Testing

private typealias TimeType = DispatchQueue.SchedulerTimeType
private typealias Stride = DispatchQueue.SchedulerTimeType.Stride

/// A serial queue that tells whether the current code runs on it.
private final class MarkedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()
    private let mark: Int

    init(_ label: String, attributes: DispatchQueue.Attributes = []) {
        queue = DispatchQueue(label: label, attributes: attributes)
        mark = label.hashValue
        queue.setSpecific(key: key, value: mark)
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == mark
    }
}

@Suite struct DispatchQueueSchedulerTests {
    // MARK: - Stride

    @Test func strideConversionsCountNanoseconds() {
        #expect(Stride.seconds(2).magnitude == 2_000_000_000)
        #expect(Stride.seconds(-3).magnitude == -3_000_000_000)
        #expect(Stride.seconds(1.25).magnitude == 1_250_000_000)
        #expect(Stride.seconds(-0.5).magnitude == -500_000_000)
        #expect(Stride.milliseconds(7).magnitude == 7_000_000)
        #expect(Stride.microseconds(7).magnitude == 7_000)
        #expect(Stride.nanoseconds(7).magnitude == 7)
        #expect(Stride.nanoseconds(-7).magnitude == -7)
    }

    @Test func strideConversionsClampToIntRange() {
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.seconds(Int.min).magnitude == .min)
        #expect(Stride.milliseconds(.max).magnitude == .max)
        #expect(Stride.milliseconds(.min).magnitude == .min)
        #expect(Stride.microseconds(.max).magnitude == .max)
        #expect(Stride.microseconds(.min).magnitude == .min)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(-Double(Int.max) / 1_000_000_000).magnitude == .min)
        #expect(Stride.seconds(Double.infinity).magnitude == .max)
        #expect(Stride.seconds(Double.nan).magnitude == 0)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude == 9_223_372_035_854_776_320)
    }

    @Test func literalsAndExactlyCountSeconds() {
        let two: Stride = 2
        let oneAndAHalf: Stride = 1.5
        #expect(two.magnitude == 2_000_000_000)
        #expect(oneAndAHalf.magnitude == 1_500_000_000)
        #expect(Stride(exactly: 3 as UInt8)?.magnitude == 3_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride.zero.magnitude == 0)
    }

    @Test func strideFromDispatchTimeInterval() {
        #expect(Stride(.seconds(2)).magnitude == 2_000_000_000)
        #expect(Stride(.milliseconds(2)).magnitude == 2_000_000)
        #expect(Stride(.microseconds(-2)).magnitude == -2_000)
        #expect(Stride(.nanoseconds(2)).magnitude == 2)
        #expect(Stride(.never).magnitude == .max)
        #expect(Stride(.seconds(.max)).magnitude == .max)
        #expect(Stride(.milliseconds(.min)).magnitude == .min)
    }

    @Test func strideToDispatchTimeInterval() {
        #expect(Stride.seconds(2).timeInterval == .nanoseconds(2_000_000_000))
        #expect(Stride.microseconds(3).timeInterval == .nanoseconds(3_000))
        #expect(Stride.nanoseconds(.max).timeInterval == .nanoseconds(.max))
    }

    @Test func strideArithmeticAndComparison() {
        #expect(Stride.nanoseconds(7) + .microseconds(1) == .nanoseconds(1_007))
        #expect(Stride.nanoseconds(7) - .nanoseconds(12) == .nanoseconds(-5))
        var stride = Stride.milliseconds(1)
        stride += .milliseconds(2)
        #expect(stride == .milliseconds(3))
        stride -= .milliseconds(5)
        #expect(stride == .milliseconds(-2))
        #expect(-Stride.seconds(1) == .seconds(-1))
        #expect(Stride.nanoseconds(1) < .nanoseconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
        #expect(Stride.milliseconds(999) < .seconds(1))
        #expect(Set([Stride.seconds(1), .milliseconds(1_000), .nanoseconds(1)]).count == 2)
    }

    @Test func multiplicationCountsSeconds() {
        #expect(Stride.milliseconds(250) * 4 == .seconds(1))
        #expect(Stride.seconds(2) * .seconds(3) == .seconds(6))
        #expect(Stride.seconds(-2) * 1.5 == .seconds(-3))
        // Products shorter than a nanosecond are zero, truncated toward zero whatever the sign.
        #expect(Stride.nanoseconds(18) * .microseconds(1) == .zero)
        #expect(Stride.microseconds(-3) * .nanoseconds(10) == .zero)
        #expect(Stride.seconds(1) * .nanoseconds(5) == .nanoseconds(5))
        // Products too long for an Int of nanoseconds are clamped.
        #expect(Stride.seconds(Int.max) * 2 == .nanoseconds(.max))
        #expect(Stride.seconds(Int.max) * -2 == .nanoseconds(.min))
        var stride = Stride.milliseconds(100)
        stride *= 3
        #expect(stride == .milliseconds(300))
    }

    @Test func strideCodableUsesCombinesKey() throws {
        let json = try schedulerTestJSON(Stride.nanoseconds(419_872))
        #expect(json == #"{"value":{"_nanoseconds":419872}}"#)
        #expect(try schedulerTestDecode(Stride.self, from: json) == .nanoseconds(419_872))
    }

    // MARK: - SchedulerTimeType

    @Test func distanceAndAdvance() {
        let early = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let late = TimeType(DispatchTime(uptimeNanoseconds: 10_431))
        #expect(early.distance(to: late) == .nanoseconds(431))
        #expect(late.distance(to: early) == .nanoseconds(-431))
        #expect(early.distance(to: early) == .zero)
        #expect(early.advanced(by: .nanoseconds(431)) == late)
        #expect(late.advanced(by: .nanoseconds(-431)) == early)
        #expect(early.advanced(by: .microseconds(1)).dispatchTime.uptimeNanoseconds == 11_000)
        #expect(early < late)
        #expect(!(late < early))
    }

    @Test func distancesTooLongForAnIntSaturate() {
        let time = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let distantFuture = TimeType(.distantFuture)
        #expect(time.distance(to: distantFuture) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: time) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: distantFuture) == .zero)
    }

    @Test func theDistantFutureComesAfterEveryOtherInstant() {
        // Its distance saturates in both directions, so the order is the dispatch clock's.
        let time = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let distantFuture = TimeType(.distantFuture)
        #expect(time < distantFuture)
        #expect(!(distantFuture < time))
        #expect(!(distantFuture < distantFuture))
        #expect(Swift.max(time, distantFuture) == distantFuture)
        #expect(Swift.max(distantFuture, time) == distantFuture)
        #expect([distantFuture, time].sorted() == [time, distantFuture])
    }

    @Test func advancingToTheEnds() {
        let time = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        let beginning = TimeType(DispatchTime(uptimeNanoseconds: 1))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).dispatchTime.uptimeNanoseconds == 1)
        #expect(time.advanced(by: .nanoseconds(.min)).dispatchTime.uptimeNanoseconds == 1)
    }

    @Test func equalityAndHashing() {
        let time = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let same = TimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let other = TimeType(DispatchTime(uptimeNanoseconds: 10_001))
        #expect(time == same)
        #expect(time != other)
        #expect(time.hashValue == same.hashValue)
        #expect(time.hashValue == time.dispatchTime.rawValue.hashValue)
        #expect(Set([time, same, other]).count == 2)
    }

    @Test func timeCodableIsUptimeNanoseconds() throws {
        let time = TimeType(DispatchTime(uptimeNanoseconds: 42))
        let json = try schedulerTestJSON(time)
        #expect(json == #"{"value":42}"#)
        #expect(try schedulerTestDecode(TimeType.self, from: json) == time)
    }

    // MARK: - Scheduler

    @Test func nowAndMinimumTolerance() {
        let queue = DispatchQueue(label: "now")
        let before = DispatchTime.now()
        let now = queue.now
        let after = DispatchTime.now()
        #expect(before <= now.dispatchTime && now.dispatchTime <= after)
        #expect(queue.minimumTolerance == .zero)
        #expect(DispatchQueue.main.minimumTolerance == .nanoseconds(0))
    }

    @Test func defaultOptions() {
        let options = DispatchQueue.SchedulerOptions()
        #expect(options.qos == .unspecified)
        #expect(options.flags == [])
        #expect(options.group == nil)
        let custom = DispatchQueue.SchedulerOptions(qos: .utility, flags: .barrier, group: DispatchGroup())
        #expect(custom.qos == .utility)
        #expect(custom.flags == .barrier)
        #expect(custom.group != nil)
    }

    @Test func scheduleRunsOnTheQueue() {
        let marked = MarkedQueue("scheduleRunsOnTheQueue")
        let onQueue = SchedulerTestBox<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        marked.queue.schedule {
            onQueue.withValue { $0 = marked.isCurrent }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(onQueue.value == true)
        #expect(!marked.isCurrent)
    }

    @Test func scheduleIsAsynchronous() {
        let queue = DispatchQueue(label: "scheduleIsAsynchronous")
        let ran = SchedulerTestBox(false)
        let ranBeforeReturning = queue.sync {
            // The queue is serial and busy with this block, so the action can only run after it.
            queue.schedule { ran.withValue { $0 = true } }
            return ran.value
        }
        #expect(!ranBeforeReturning)
        queue.sync {}
        #expect(ran.value)
    }

    @Test func serialQueueRunsActionsInOrder() {
        let queue = DispatchQueue(label: "serialQueueRunsActionsInOrder")
        let order = SchedulerTestBox<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<200 {
            queue.schedule(options: .init(group: group)) { order.append(index) }
        }
        #expect(group.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(order.value == Array(0..<200))
    }

    @Test func optionsGroupTracksTheAction() {
        let queue = DispatchQueue.global(qos: .utility)
        let group = DispatchGroup()
        let ran = SchedulerTestBox(false)
        queue.schedule(options: .init(qos: .userInitiated, group: group)) { ran.withValue { $0 = true } }
        #expect(group.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(ran.value)
    }

    @Test func barrierFlagWaitsForEarlierWork() {
        let marked = MarkedQueue("barrierFlagWaitsForEarlierWork", attributes: .concurrent)
        let finishedBefore = SchedulerTestBox(0)
        let seenByBarrier = SchedulerTestBox<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            marked.queue.schedule { finishedBefore.withValue { $0 += 1 } }
        }
        marked.queue.schedule(options: .init(flags: .barrier)) {
            seenByBarrier.withValue { $0 = finishedBefore.value }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(seenByBarrier.value == 8)
    }

    @Test func scheduleAfterRunsNoEarlierThanTheDate() {
        let marked = MarkedQueue("scheduleAfterRunsNoEarlierThanTheDate")
        let date = marked.queue.now.advanced(by: .milliseconds(50))
        let observed = SchedulerTestBox<(time: DispatchTime, onQueue: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        marked.queue.schedule(after: date) {
            observed.withValue { $0 = (DispatchTime.now(), marked.isCurrent) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        let result = observed.value
        #expect(result.map { $0.time >= date.dispatchTime } == true)
        #expect(result?.onQueue == true)
    }

    @Test func scheduleAfterWithToleranceAndOptions() {
        let marked = MarkedQueue("scheduleAfterWithToleranceAndOptions")
        let date = marked.queue.now.advanced(by: .milliseconds(20))
        let ranAt = SchedulerTestBox<DispatchTime?>(nil)
        let done = DispatchSemaphore(value: 0)
        marked.queue.schedule(after: date, tolerance: .milliseconds(5), options: .init(qos: .utility)) {
            ranAt.withValue { $0 = marked.isCurrent ? DispatchTime.now() : nil }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(ranAt.value.map { $0 >= date.dispatchTime } == true)
    }

    @Test func scheduleAfterAPastDateRunsSoon() {
        let queue = DispatchQueue(label: "scheduleAfterAPastDateRunsSoon")
        let done = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .seconds(-5))) { done.signal() }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
    }

    @Test func delayedActionsRunInDateOrder() {
        let queue = DispatchQueue(label: "delayedActionsRunInDateOrder")
        let order = SchedulerTestBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let start = queue.now
        for (index, delay) in [30, 10, 20].enumerated() {
            queue.schedule(after: start.advanced(by: .milliseconds(delay))) {
                order.append(index)
                if order.value.count == 3 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(order.value == [1, 2, 0])
    }

    @Test func repeatingActionFiresRepeatedlyThenStopsAfterCancel() {
        let marked = MarkedQueue("repeatingActionFiresRepeatedlyThenStopsAfterCancel")
        let fires = SchedulerTestBox<[DispatchTime]>([])
        let offQueue = SchedulerTestBox(0)
        let tick = DispatchSemaphore(value: 0)
        let start = marked.queue.now.advanced(by: .milliseconds(20))
        let interval = Stride.milliseconds(10)
        let cancellable = marked.queue.schedule(after: start, interval: interval) {
            fires.withValue { $0.append(.now()) }
            if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
            tick.signal()
        }
        for _ in 0..<4 {
            #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        }
        #expect(cancellable is AnyCancellable)
        cancellable.cancel()
        // The queue is serial: once this returns, no handler is running.
        let countAtCancel = marked.queue.sync { fires.value.count }
        // Take the signals of the fires that came before the cancel, then several intervals pass
        // without another one.
        for _ in 4..<countAtCancel {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        #expect(fires.value.count == countAtCancel)
        #expect(countAtCancel >= 4)
        #expect(offQueue.value == 0)
        let times = fires.value
        for (index, time) in times.enumerated() {
            #expect(time >= start.advanced(by: .nanoseconds(interval.magnitude * index)).dispatchTime)
        }
    }

    @Test func releasingTheCancellableStopsTheTimer() {
        let queue = DispatchQueue(label: "releasingTheCancellableStopsTheTimer")
        let count = SchedulerTestBox(0)
        let tick = DispatchSemaphore(value: 0)
        do {
            let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5), tolerance: .zero) {
                count.withValue { $0 += 1 }
                tick.signal()
            }
            #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
            _ = cancellable
        }
        let countAtRelease = queue.sync { count.value }
        for _ in 1..<countAtRelease {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(60)) == .timedOut)
        #expect(count.value == countAtRelease)
    }

    @Test func fullRepeatingRequirementUsesItsOptions() {
        let marked = MarkedQueue("fullRepeatingRequirementUsesItsOptions")
        let tick = DispatchSemaphore(value: 0)
        let onQueue = SchedulerTestBox(true)
        let cancellable = marked.queue.schedule(
            after: marked.queue.now, interval: .milliseconds(5), tolerance: .milliseconds(1),
            options: .init(qos: .userInitiated)
        ) {
            if !marked.isCurrent { onQueue.withValue { $0 = false } }
            tick.signal()
        }
        #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        cancellable.cancel()
        #expect(onQueue.value)
    }

    @Test func combineStyleCallsCompileAndRun() {
        let queue = DispatchQueue(label: "combineStyleCallsCompileAndRun")
        let done = DispatchSemaphore(value: 0)
        queue.schedule(after: .init(.now() + 0.01)) { done.signal() }
        queue.schedule(after: .init(.now() + .milliseconds(10)), tolerance: .milliseconds(1)) { done.signal() }
        let ticking = queue.schedule(after: queue.now, interval: 1) { done.signal() }
        for _ in 0..<3 {
            #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        }
        ticking.cancel()
        let existential: any Scheduler<DispatchQueue.SchedulerTimeType> = queue
        #expect(existential.minimumTolerance == .zero)
    }

    @Test func genericCodeWritesDurationsTheSameWay() {
        func deadline<S: Scheduler>(on scheduler: S) -> S.SchedulerTimeType {
            scheduler.now.advanced(by: .milliseconds(1_500))
        }
        let queue = DispatchQueue(label: "generic")
        let before = queue.now
        let result = deadline(on: queue)
        #expect(before.distance(to: result) >= .milliseconds(1_500))
        #expect(before.distance(to: result) < .seconds(60))
    }
}
