import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// What it means for each kind of scheduler that Observation announces a change from inside the
/// write: with the toolchain's Observation (Linux, Windows, Android) the announcement comes once the
/// value is stored, so even a read made at once, on an immediate scheduler, sees it; Apple's SDKs
/// announce only before the store, and there a read made at once sees the value before the write.
@Suite(.timeLimit(.minutes(3))) struct ObservationSchedulingTests {
    #if !canImport(Darwin)
        @Test func anImmediateSchedulerDeliversEachWriteOnceAsItIsMade() {
            let model = ObservedModel()
            let subscriber = TestSubscriber<Int, Never>()
            model.publisher(for: \.count, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
            for value in 1...8 { model.count = value }
            #expect(subscriber.values == Array(0...8))
        }

        @Test func anExpressionOnAnImmediateSchedulerDeliversEachWriteOnce() {
            let model = ObservedModel()
            let subscriber = TestSubscriber<String, Never>()
            ObservationPublisher(scheduler: ImmediateScheduler.shared) { "\(model.title)\(model.count)" }
                .subscribe(subscriber)
            for value in 1...8 { model.count = value }
            model.title = "b"
            #expect(subscriber.values == ["a0"] + (1...8).map { "a\($0)" } + ["b8"])
        }

        @Test func aWriteFromInsideTheSubscriberIsDeliveredAfterTheValueBeingDelivered() {
            let model = ObservedModel()
            var received: [Int] = []
            let cancellable = model.publisher(for: \.count, scheduler: ImmediateScheduler.shared).sink { value in
                received.append(value)
                if value == 1 { model.count = 2 }
            }
            model.count = 1
            #expect(received == [0, 1, 2])
            cancellable.cancel()
        }

        @Test func aTestSchedulerReadsTheValueStoredLast() {
            let scheduler = DispatchQueue.test
            let model = ObservedModel()
            let subscriber = TestSubscriber<Int, Never>()
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = 1
            model.count = 2
            #expect(scheduler.scheduledCount == 1)
            scheduler.advance()
            #expect(subscriber.values == [0, 2])
        }
    #else
        @Test func anImmediateSchedulerReadsBeforeTheWriteLands() {
            // Apple's SDKs announce a change before the store: read at once, the value is the one
            // before the write, and the last write shows only once another follows it.
            let model = ObservedModel()
            let subscriber = TestSubscriber<Int, Never>()
            model.publisher(for: \.count, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
            for value in 1...8 { model.count = value }
            #expect(subscriber.values == Array(0...7))
        }
    #endif

    @Test func subscribingAndCancellingOverAndOverAddsNoTrackingPerSubscription() {
        // The first subscription reads with tracking (two reads); the shared observation it made
        // stays armed when it is cancelled, so each later subscription reads once, untracked.
        let model = ReadCountingModel()
        for _ in 0..<1_000 {
            model.publisher(for: \.counted, scheduler: ImmediateScheduler.shared).sink { _ in }.cancel()
        }
        #expect(model.reads == 2 + 999)
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.counted, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        model.value = 1
        #expect(subscriber.values == [0, 1])
    }

    @Test func aChangeWithNoSubscriptionLeftEndsTheWaitingObservation() {
        let model = ReadCountingModel()
        model.publisher(for: \.counted, scheduler: ImmediateScheduler.shared).sink { _ in }.cancel()
        model.value = 1
        #expect(model.reads == 2)
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.counted, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(model.reads == 4)
        model.value = 2
        #expect(subscriber.values == [1, 2])
    }
}
