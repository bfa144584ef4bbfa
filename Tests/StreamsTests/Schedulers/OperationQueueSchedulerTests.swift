import Dispatch
import Foundation
import Streams
import Testing

private typealias TimeType = OperationQueue.SchedulerTimeType
private typealias Stride = OperationQueue.SchedulerTimeType.Stride

@Suite struct OperationQueueSchedulerTests {
    // MARK: - Time and stride

    @Test func strideCountsSeconds() {
        #expect(Stride.seconds(3).timeInterval == 3)
        #expect(Stride.seconds(0.75).timeInterval == 0.75)
        #expect(Stride.milliseconds(3).timeInterval == 0.003)
        #expect(Stride.microseconds(3).timeInterval == 3e-6)
        #expect(Stride.nanoseconds(3).timeInterval == 3e-9)
        #expect((4 as Stride).magnitude == 4)
        #expect((0.5 as Stride).magnitude == 0.5)
        #expect(Stride(exactly: 9 as Int8)?.magnitude == 9)
        #expect((Stride.milliseconds(-12) + .seconds(7)).magnitude == 6.988)
        #expect((Stride.milliseconds(-12) - .seconds(7)).magnitude == -7.012)
        #expect((Stride.seconds(2) * .seconds(4)).magnitude == 8)
        var stride = Stride.seconds(1)
        stride += 1
        stride *= 3
        stride -= 0.5
        #expect(stride == .seconds(5.5))
        #expect(Stride.microseconds(999) < .milliseconds(1))
    }

    @Test func timeTypeWrapsADate() throws {
        let time = TimeType(Date(timeIntervalSinceReferenceDate: 100))
        let later = time.advanced(by: .milliseconds(1_500))
        #expect(later.date == Date(timeIntervalSinceReferenceDate: 101.5))
        #expect(time.distance(to: later) == .seconds(1.5))
        #expect(later.distance(to: time) == .seconds(-1.5))
        #expect(time < later)
        let json = try schedulerTestJSON(time)
        #expect(json == #"{"value":{"date":100}}"#)
        #expect(try schedulerTestDecode(TimeType.self, from: json) == time)
        let strideJSON = try schedulerTestJSON(Stride.milliseconds(250))
        #expect(strideJSON == #"{"value":{"magnitude":0.25}}"#)
        #expect(try schedulerTestDecode(Stride.self, from: strideJSON) == .milliseconds(250))
    }

    @Test func nowAndMinimumTolerance() {
        let queue = OperationQueue()
        let before = Date()
        let now = queue.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(queue.minimumTolerance == .seconds(0))
    }

    // MARK: - Scheduling

    @Test func scheduleAddsAnOperation() {
        let queue = OperationQueue()
        let current = SchedulerTestBox<OperationQueue?>(nil)
        queue.schedule { current.withValue { $0 = OperationQueue.current } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(current.value === queue)
    }

    @Test func serialQueueRunsActionsInOrder() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = SchedulerTestBox<[Int]>([])
        for index in 0..<100 {
            queue.schedule(options: nil) { order.append(index) }
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(order.value == Array(0..<100))
    }

    @Test func delayedActionWaitsInTheQueueUntilItsDate() {
        let queue = OperationQueue()
        let date = queue.now.advanced(by: .milliseconds(50))
        let observed = SchedulerTestBox<(date: Date, queue: OperationQueue?)?>(nil)
        queue.schedule(after: date) { observed.withValue { $0 = (Date(), OperationQueue.current) } }
        // The operation is in the queue from the start, so waiting for the queue waits for it.
        queue.waitUntilAllOperationsAreFinished()
        #expect(observed.value.map { $0.date >= date.date } == true)
        #expect(observed.value?.queue === queue)
    }

    @Test func delayedActionDoesNotHoldUpReadyOnes() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = SchedulerTestBox<[Int]>([])
        queue.schedule(after: queue.now.advanced(by: .milliseconds(40)), tolerance: .zero, options: nil) {
            order.append(1)
        }
        queue.schedule { order.append(0) }
        queue.waitUntilAllOperationsAreFinished()
        #expect(order.value == [0, 1])
    }

    @Test func cancellingTheQueuesOperationsDropsADelayedAction() {
        let queue = OperationQueue()
        let date = queue.now.advanced(by: .seconds(60))
        let ran = SchedulerTestBox(false)
        queue.schedule(after: date) { ran.withValue { $0 = true } }
        queue.cancelAllOperations()
        // A cancelled operation becomes ready at once, so this returns long before the date.
        queue.waitUntilAllOperationsAreFinished()
        #expect(Date() < date.date)
        #expect(!ran.value)
    }

    @Test func repeatingActionFiresUntilCancelled() {
        let queue = OperationQueue()
        let fires = SchedulerTestBox<[Date]>([])
        let wrongQueue = SchedulerTestBox(false)
        let tick = DispatchSemaphore(value: 0)
        let start = queue.now.advanced(by: .milliseconds(20))
        let interval = Stride.milliseconds(10)
        let cancellable = queue.schedule(after: start, interval: interval) {
            fires.withValue { $0.append(Date()) }
            if OperationQueue.current !== queue { wrongQueue.withValue { $0 = true } }
            tick.signal()
        }
        for _ in 0..<4 {
            #expect(tick.wait(timeout: .now() + schedulerTestTimeout) == .success)
        }
        #expect(cancellable is AnyCancellable)
        cancellable.cancel()
        // The pending operation is cancelled, so the queue empties at once.
        queue.waitUntilAllOperationsAreFinished()
        let countAtCancel = fires.value.count
        for _ in 4..<countAtCancel {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(80)) == .timedOut)
        #expect(fires.value.count == countAtCancel)
        #expect(!wrongQueue.value)
        for (index, date) in fires.value.enumerated() {
            #expect(date >= start.advanced(by: interval * Stride(exactly: index)!).date)
        }
    }

    @Test func releasingTheCancellableStopsTheRepetition() {
        let queue = OperationQueue()
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
        queue.waitUntilAllOperationsAreFinished()
        let countAtRelease = count.value
        for _ in 1..<countAtRelease {
            #expect(tick.wait(timeout: .now()) == .success)
        }
        #expect(tick.wait(timeout: .now() + .milliseconds(60)) == .timedOut)
        #expect(count.value == countAtRelease)
    }

    @Test func cancellingReleasesTheAction() {
        let queue = OperationQueue()
        weak var weakTracked: Tracked?
        var cancellable: (any Cancellable)?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            cancellable = queue.schedule(after: queue.now.advanced(by: .seconds(60)), interval: .seconds(60)) {
                tracked.value += 1
            }
        }
        #expect(weakTracked != nil)
        cancellable?.cancel()
        queue.waitUntilAllOperationsAreFinished()
        #expect(weakTracked == nil)
        cancellable = nil
    }
}
