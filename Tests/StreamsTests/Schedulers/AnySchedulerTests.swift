import Dispatch
import Foundation
import Streams
import Testing

/// What a ``RecordingScheduler`` was asked to do.
private enum ScheduleCall: Equatable {
    case immediately(options: String?)
    case delayed(date: Int, tolerance: Int, options: String?)
    case repeating(date: Int, interval: Int, tolerance: Int, options: String?)
}

/// A scheduler with a fixed clock that records every call and performs each action at once.
// @unchecked Sendable: `calls` is guarded by `lock`.
private final class RecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = String

    private let lock = NSLock()
    private var recorded: [ScheduleCall] = []
    let cancellable = RecordingCancellable()

    var calls: [ScheduleCall] {
        lock.withLock { recorded }
    }

    var now: SchedulerTimeType {
        SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
    }

    var minimumTolerance: SchedulerTimeType.Stride {
        .nanoseconds(7)
    }

    private func record(_ call: ScheduleCall) {
        lock.withLock { recorded.append(call) }
    }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        record(.immediately(options: options))
        action()
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
        _ action: @escaping () -> Void
    ) {
        record(
            .delayed(date: Int(date.dispatchTime.uptimeNanoseconds), tolerance: tolerance.magnitude, options: options))
        action()
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: String?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        record(
            .repeating(
                date: Int(date.dispatchTime.uptimeNanoseconds), interval: interval.magnitude,
                tolerance: tolerance.magnitude, options: options))
        action()
        return cancellable
    }
}

/// A cancellable that counts its cancellations.
// @unchecked Sendable: `count` is guarded by `lock`.
private final class RecordingCancellable: Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var cancelCount: Int {
        lock.withLock { count }
    }

    func cancel() {
        lock.withLock { count += 1 }
    }
}

private func time(_ nanoseconds: UInt64) -> DispatchQueue.SchedulerTimeType {
    DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: nanoseconds))
}

@Suite struct AnySchedulerTests {
    @Test func forwardsEveryRequirementToTheWrappedScheduler() {
        let base = RecordingScheduler()
        let erased: AnyScheduler<DispatchQueue.SchedulerTimeType, String> = base.eraseToAnyScheduler()
        var performed = 0
        #expect(erased.now == base.now)
        #expect(erased.minimumTolerance == .nanoseconds(7))
        erased.schedule(options: "a") { performed += 1 }
        erased.schedule(after: time(5_000), tolerance: .nanoseconds(3), options: "b") { performed += 1 }
        let cancellable = erased.schedule(
            after: time(6_000), interval: .nanoseconds(100), tolerance: .nanoseconds(2), options: "c"
        ) { performed += 1 }
        #expect(performed == 3)
        #expect(
            base.calls == [
                .immediately(options: "a"),
                .delayed(date: 5_000, tolerance: 3, options: "b"),
                .repeating(date: 6_000, interval: 100, tolerance: 2, options: "c"),
            ])
        cancellable.cancel()
        #expect(base.cancellable.cancelCount == 1)
        #expect((cancellable as? RecordingCancellable) === base.cancellable)
    }

    @Test func conveniencesGoThroughTheErasedRequirements() {
        let base = RecordingScheduler()
        let erased = AnyScheduler(base)
        erased.schedule {}
        erased.schedule(after: time(10)) {}
        erased.schedule(after: time(20), tolerance: .nanoseconds(4)) {}
        _ = erased.schedule(after: time(30), interval: .nanoseconds(50)) {}
        _ = erased.schedule(after: time(40), interval: .nanoseconds(60), tolerance: .nanoseconds(1)) {}
        #expect(
            base.calls == [
                .immediately(options: nil),
                .delayed(date: 10, tolerance: 7, options: nil),
                .delayed(date: 20, tolerance: 4, options: nil),
                .repeating(date: 30, interval: 50, tolerance: 7, options: nil),
                .repeating(date: 40, interval: 60, tolerance: 1, options: nil),
            ])
    }

    @Test func closureEndpoints() {
        var log: [String] = []
        let cancellable = RecordingCancellable()
        let scheduler = AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { .milliseconds(3) },
            now: { time(77) },
            scheduleImmediately: { options, action in
                log.append("now \(options?.qos == .utility)")
                action()
            },
            delayed: { date, tolerance, _, action in
                log.append("delayed \(date.dispatchTime.uptimeNanoseconds) \(tolerance.magnitude)")
                action()
            },
            interval: { date, interval, tolerance, _, action in
                log.append(
                    "interval \(date.dispatchTime.uptimeNanoseconds) \(interval.magnitude) \(tolerance.magnitude)")
                action()
                return cancellable
            }
        )
        #expect(scheduler.now == time(77))
        #expect(scheduler.minimumTolerance == .milliseconds(3))
        scheduler.schedule(options: .init(qos: .utility)) { log.append("action") }
        scheduler.schedule(after: time(9)) { log.append("action") }
        scheduler.schedule(after: time(10), interval: .nanoseconds(11)) { log.append("action") }.cancel()
        #expect(
            log == [
                "now true", "action", "delayed 9 3000000", "action", "interval 10 11 3000000", "action",
            ])
        #expect(cancellable.cancelCount == 1)
    }

    @Test func erasedDispatchQueueRunsOnTheQueue() {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "erasedDispatchQueueRunsOnTheQueue")
        queue.setSpecific(key: key, value: 7)
        let scheduler: AnySchedulerOf<DispatchQueue> = queue.eraseToAnyScheduler()
        let before = DispatchTime.now()
        let now = scheduler.now
        #expect(before <= now.dispatchTime && now.dispatchTime <= DispatchTime.now())
        #expect(scheduler.minimumTolerance == queue.minimumTolerance)

        let marks = SchedulerTestBox<[Int?]>([])
        let done = DispatchSemaphore(value: 0)
        let date = scheduler.now.advanced(by: .milliseconds(20))
        let ranAt = SchedulerTestBox<DispatchTime?>(nil)
        scheduler.schedule { marks.withValue { $0.append(DispatchQueue.getSpecific(key: key)) } }
        scheduler.schedule(after: date) {
            ranAt.withValue { $0 = .now() }
            marks.withValue { $0.append(DispatchQueue.getSpecific(key: key)) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(marks.value == [7, 7])
        #expect(ranAt.value.map { $0 >= date.dispatchTime } == true)
    }

    @Test func erasedRepeatingActionStopsWhenCancelled() {
        let queue = DispatchQueue(label: "erasedRepeatingActionStopsWhenCancelled")
        let scheduler = queue.eraseToAnyScheduler()
        let count = SchedulerTestBox(0)
        let tick = DispatchSemaphore(value: 0)
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(5)) {
            count.withValue { $0 += 1 }
            tick.signal()
        }
        #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        cancellable.cancel()
        let countAtCancel = queue.sync { count.value }
        for _ in 2..<countAtCancel {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(60)) == .timedOut)
        #expect(count.value == countAtCancel)
    }

    @Test func staticConveniences() {
        let global: AnySchedulerOf<DispatchQueue> = .global(qos: .utility)
        let done = DispatchSemaphore(value: 0)
        global.schedule { done.signal() }
        #expect(done.wait(timeout: .now() + schedulerTestTimeout) == .success)

        let main: AnySchedulerOf<DispatchQueue> = .main
        #expect(main.minimumTolerance == .zero)
        let runLoop: AnySchedulerOf<RunLoop> = .main
        #expect(runLoop.minimumTolerance == .zero)
        let operationQueue: AnySchedulerOf<OperationQueue> = .main
        #expect(operationQueue.minimumTolerance == .zero)
        let before = Date()
        #expect(runLoop.now.date >= before && operationQueue.now.date >= before)
        // The conveniences do not get in the way of the queues' own members.
        #expect(DispatchQueue.main.label == DispatchQueue.main.label)
    }

    @Test func erasedImmediateSchedulerStaysSynchronous() {
        let scheduler = ImmediateScheduler.shared.eraseToAnyScheduler()
        var log: [Int] = []
        scheduler.schedule { log.append(1) }
        scheduler.schedule(after: scheduler.now.advanced(by: 10)) { log.append(2) }
        let cancellable = scheduler.schedule(after: scheduler.now, interval: 1) { log.append(3) }
        #expect(log == [1, 2, 3])
        #expect(String(describing: cancellable) == "Empty")
    }
}
