import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// A model that keeps the cancellable of its own publisher.
@Observable final class SelfObservingModel {
    var count = 0
    @ObservationIgnored var seen: [Int] = []
    @ObservationIgnored var cancellable: AnyCancellable?

    init<S: Scheduler>(scheduler: S) {
        cancellable = publisher(for: \.count, scheduler: scheduler).sink { [weak self] in self?.seen.append($0) }
    }
}

@Suite struct ObservationPublisherLifetimeTests {
    @Test func nothingIsDeliveredAfterCancelEvenWithAReadScheduled() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        model.count = 1
        #expect(scheduler.scheduledCount == 1)
        subscriber.cancel()
        scheduler.advance()
        model.count = 2
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance()
        #expect(subscriber.values == [0])
        #expect(subscriber.completion == nil)
    }

    @Test func cancellingFreesTheSubscriptionWhileTheModelLives() throws {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = 1
            weakSubscription = try #require(subscriber.subscription) as AnyObject
            subscriber.cancel()
        }
        #expect(weakSubscription == nil)
        scheduler.advance()
        model.count = 2
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func finishingFreesTheSubscription() throws {
        let scheduler = DispatchQueue.test
        weak var weakSubscription: AnyObject?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let model = ObservedModel()
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            weakSubscription = try #require(subscriber.subscription) as AnyObject
        }
        scheduler.advance()
        #expect(subscriber.completion == .finished)
        subscriber.cancel()
        #expect(weakSubscription == nil)
    }

    @Test func theKeyPathPublisherHoldsTheModelWeaklyAndFinishesWhenItGoes() {
        let scheduler = DispatchQueue.test
        weak var weakModel: ObservedModel?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let model = ObservedModel()
            weakModel = model
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = 1
            scheduler.advance()
        }
        #expect(weakModel == nil)
        #expect(subscriber.completion == nil)
        scheduler.advance()
        #expect(subscriber.values == [0, 1])
        #expect(subscriber.completion == .finished)
    }

    @Test func aModelGoneWithAReadScheduledFinishesThePublisher() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let model = ObservedModel()
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = 1
        }
        scheduler.advance()
        #expect(subscriber.values == [0])
        #expect(subscriber.completion == .finished)
    }

    @Test func aHeldValueIsDeliveredBeforeTheCompletion() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        do {
            let model = ObservedModel()
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = 1
            scheduler.advance()
        }
        scheduler.advance()
        #expect(subscriber.values == [])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func theExpressionAndWhatItCapturesAreReleasedOnCancel() {
        let scheduler = DispatchQueue.test
        weak var weakModel: ObservedModel?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let model = ObservedModel()
            weakModel = model
            ObservationPublisher(scheduler: scheduler) { model.count }.subscribe(subscriber)
        }
        #expect(weakModel != nil)
        subscriber.cancel()
        #expect(weakModel == nil)
    }

    @Test func aModelKeepingItsOwnCancellableHasNoCycle() {
        let scheduler = DispatchQueue.test
        weak var weakModel: SelfObservingModel?
        do {
            let model = SelfObservingModel(scheduler: scheduler)
            weakModel = model
            model.count = 4
            scheduler.advance()
            #expect(model.seen == [0, 4])
        }
        #expect(weakModel == nil)
    }

    /// The default scheduler is the main queue, which this parallel test run serves or not depending
    /// on the other tests (where it delivers is measured in separate programs). What is certain: the
    /// initial value comes at once, on the subscribing thread, and whatever came after it is one of
    /// the values written, never delivered before the write that made it.
    @Test func theDefaultSchedulerDeliversTheInitialValueAtOnce() {
        // The main queue may read the model while this thread writes it: the model is thread-safe.
        let model = ThreadSafeCounter()
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.value).subscribe(subscriber)
        #expect(subscriber.values == [0])
        model.value = 1
        model.value = 2
        let values = subscriber.values
        #expect(values.first == 0)
        #expect(values.dropFirst().allSatisfy { [0, 1, 2].contains($0) })
        subscriber.cancel()
    }
}
