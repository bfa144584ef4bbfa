import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// A serial queue that is not the main queue, and can tell whether code runs on it.
private final class BackgroundQueue: Sendable {
    let queue = DispatchQueue(label: "background")
    private let key = DispatchSpecificKey<Int>()

    init() {
        queue.setSpecific(key: key, value: 1)
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == 1
    }
}

/// Marks the main queue for these tests. Under Swift Testing on Linux the main queue may be served
/// by a thread other than the process's first one, so "on the main queue" is checked, not
/// `Thread.isMainThread`.
private let mainQueueKey: DispatchSpecificKey<Int> = {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

private var isOnMainQueue: Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == 1
}

/// Where an action ran.
private struct Place: Equatable, Sendable {
    var isMainQueue: Bool
    var isBackgroundQueue: Bool
}

@Suite(.timeLimit(.minutes(3))) struct UISchedulerTests {
    @Test @MainActor func onTheMainActorTheActionRunsBeforeScheduleReturns() {
        var log: [String] = []
        UIScheduler.shared.schedule { log.append("action") }
        log.append("after schedule")
        #expect(log == ["action", "after schedule"])
    }

    @Test @MainActor func nestedSchedulingOnTheMainActorRunsInOrder() {
        var log: [Int] = []
        UIScheduler.shared.schedule {
            log.append(1)
            UIScheduler.shared.schedule { log.append(2) }
            log.append(3)
        }
        #expect(log == [1, 2, 3])
    }

    @Test func offTheMainQueueTheActionHopsToTheMainQueue() async {
        let background = BackgroundQueue()
        _ = mainQueueKey
        let place = await withCheckedContinuation { continuation in
            background.queue.async {
                UIScheduler.shared.schedule {
                    continuation.resume(
                        returning: Place(isMainQueue: isOnMainQueue, isBackgroundQueue: background.isCurrent))
                }
            }
        }
        #expect(place == Place(isMainQueue: true, isBackgroundQueue: false))
    }

    @Test func offTheMainQueueTheActionRunsAfterTheSchedulingCodeHasMovedOn() async {
        // The scheduling block holds the background queue until the action has been handed to the
        // main queue and the block has recorded that; the action, on the main queue, runs later.
        let background = BackgroundQueue()
        let order = SchedulerTestBox<[String]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            background.queue.async {
                let handedOver = DispatchSemaphore(value: 0)
                UIScheduler.shared.schedule {
                    handedOver.wait()
                    order.withValue { $0.append("action") }
                    continuation.resume()
                }
                order.withValue { $0.append("scheduling code") }
                handedOver.signal()
            }
        }
        #expect(order.value == ["scheduling code", "action"])
    }

    @Test func datedActionsRunOnTheMainQueue() async {
        _ = mainQueueKey
        let scheduler = UIScheduler.shared
        let ranOnMainQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1)), tolerance: .zero) {
                    continuation.resume(returning: isOnMainQueue)
                }
            }
        }
        #expect(ranOnMainQueue)
    }

    @Test @MainActor func aDatedActionDueAlreadyStillWaitsForTheMainQueue() async {
        let scheduler = UIScheduler.shared
        var ran = false
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule(after: scheduler.now, tolerance: .zero) {
                ran = true
                continuation.resume()
            }
            #expect(!ran)
        }
        #expect(ran)
    }

    @Test func repeatingActionsRunOnTheMainQueueUntilCancelled() async {
        _ = mainQueueKey
        let scheduler = UIScheduler.shared
        let ticks = SchedulerTestBox<[Bool]>([])
        let stopped = SchedulerTestBox<(any Cancellable)?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let repetition = scheduler.schedule(
                after: scheduler.now, interval: .milliseconds(1), tolerance: .zero, options: nil
            ) {
                let count = ticks.withValue { ticks -> Int in
                    ticks.append(isOnMainQueue)
                    return ticks.count
                }
                // Under load, the first ticks may run before `stopped` is set: every tick from the
                // third on cancels, and the third resumes the test.
                if count >= 3 { stopped.value?.cancel() }
                if count == 3 { continuation.resume() }
            }
            stopped.withValue { $0 = repetition }
        }
        stopped.value?.cancel()
        let ticked = ticks.value
        #expect(ticked.count >= 3)
        #expect(ticked.allSatisfy { $0 }, "every tick ran on the main queue")
        await MainActor.run {}
        #expect(ticks.value.count <= ticked.count + 1, "cancelled, it stops (one tick may already be queued)")
    }

    @Test func itHasTheMainQueuesClockAndNoTolerance() {
        let before = DispatchQueue.main.now
        let now = UIScheduler.shared.now
        #expect(before <= now)
        #expect(now <= DispatchQueue.main.now)
        #expect(UIScheduler.shared.minimumTolerance == .zero)
    }

    @Test func itsTestSchedulerStartsAtOneNanosecondOfUptime() {
        let scheduler = UIScheduler.test
        #expect(scheduler.now == UIScheduler.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
        var ran = false
        scheduler.schedule { ran = true }
        #expect(!ran)
        scheduler.advance()
        #expect(ran)
    }
}
