public import Dispatch
public import Foundation
public import Streams

extension DispatchQueue {
    /// A test scheduler with dispatch time, for tests of code that schedules on dispatch queues.
    ///
    /// Each access creates a new scheduler whose clock starts at one nanosecond of uptime.
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// A test scheduler with run-loop time, for tests of code that schedules on run loops.
    ///
    /// Each access creates a new scheduler whose clock starts at the reference date.
    public static var test: TestSchedulerOf<RunLoop> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
    }
}

extension OperationQueue {
    /// A test scheduler with operation-queue time, for tests of code that schedules on operation
    /// queues.
    ///
    /// Each access creates a new scheduler whose clock starts at the reference date.
    public static var test: TestSchedulerOf<OperationQueue> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
    }
}

extension UIScheduler {
    /// A test scheduler with the UI scheduler's time, for tests of code that takes a `UIScheduler`.
    ///
    /// Each access creates a new scheduler whose clock starts at one nanosecond of uptime.
    ///
    /// ```swift
    /// let scheduler = UIScheduler.test
    /// var ran = false
    /// scheduler.schedule { ran = true }
    /// scheduler.advance()
    /// #expect(ran)
    /// ```
    public static var test: TestSchedulerOf<UIScheduler> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}
