import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// A model whose writes and reads are guarded by a lock, so that threads may share it.
final class LockedModel: @unchecked Sendable {
    // @unchecked: the model is only touched with `lock` held.
    let lock = NSLock()
    let model = ObservedModel()

    func write(_ value: Int) {
        lock.withLock { model.count = value }
    }

    var count: Int {
        lock.withLock { model.count }
    }
}

@Suite(.timeLimit(.minutes(3))) struct ObservationPublisherConcurrencyTests {
    static let threads = 8
    static let writesPerThread = 500

    @Test func writesFromManyThreadsEndWithTheLastStoredValue() {
        let scheduler = DispatchQueue.test
        let shared = LockedModel()
        let subscriber = TestSubscriber<Int, Never>()
        ObservationPublisher(scheduler: scheduler) { shared.count }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 1...Self.writesPerThread {
                shared.write(thread * Self.writesPerThread + index)
            }
        }
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(subscriber.values.count == 2)
        #expect(subscriber.values.last == shared.count)
    }

    @Test func aRealSchedulerDeliversTheLastValueWhileOtherThreadsWriteAndRequest() async {
        let queue = DispatchQueue(label: "observation-delivery")
        let shared = LockedModel()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        ObservationPublisher(scheduler: queue) { shared.count }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 1...Self.writesPerThread {
                shared.write(thread * Self.writesPerThread + index)
                if index.isMultiple(of: 10) { subscriber.request(.max(1)) }
            }
        }
        // The reads run on the queue with the model's lock held, so none reads in the middle of a
        // write: once the queue is idle, the value read last is the value stored last.
        queue.sync {}
        subscriber.request(.unlimited)
        queue.sync {}
        #expect(subscriber.values.last == shared.count)
        #expect(subscriber.values.count <= Self.threads * Self.writesPerThread / 10 + 2)
        subscriber.cancel()
    }

    @Test func cancellingFromAnotherThreadStopsDelivery() {
        let queue = DispatchQueue(label: "observation-delivery")
        let shared = LockedModel()
        let subscriber = TestSubscriber<Int, Never>()
        ObservationPublisher(scheduler: queue) { shared.count }.subscribe(subscriber)
        let cancelled = DispatchSemaphore(value: 0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                subscriber.cancel()
                cancelled.signal()
                return
            }
            for index in 1...Self.writesPerThread {
                shared.write(thread * Self.writesPerThread + index)
            }
        }
        cancelled.wait()
        queue.sync {}
        let countAfterCancel = subscriber.values.count
        shared.write(-1)
        queue.sync {}
        #expect(subscriber.values.count == countAfterCancel)
        #expect(subscriber.completion == nil)
    }
}
