import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// A model that counts how often its `counted` property is read.
@Observable final class ReadCountingModel {
    var value = 0
    @ObservationIgnored var reads = 0

    var counted: Int {
        reads += 1
        return value
    }
}

/// A model whose `hooked` property runs a hook, once, when read.
@Observable final class HookedModel {
    var value = 0
    @ObservationIgnored var hook: (() -> Void)?

    var hooked: Int {
        if let hook {
            self.hook = nil
            hook()
        }
        return value
    }
}

/// A model whose property may be read and written from any thread: its storage is guarded by a lock,
/// and Observation is told of each access and mutation by hand.
@Observable final class ThreadSafeCounter: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched with `lock` held.
    @ObservationIgnored private let lock = NSLock()
    @ObservationIgnored private var storage = 0

    var value: Int {
        get {
            access(keyPath: \.value)
            return lock.withLock { storage }
        }
        set {
            withMutation(keyPath: \.value) { lock.withLock { storage = newValue } }
        }
    }
}

/// Subscriptions of `publisher(for:)` to one property on one scheduler share one reading per change;
/// each must still receive exactly what it would have received alone.
@Suite(.timeLimit(.minutes(3))) struct ObservationSharingTests {
    @Test func aChangeIsReadOnceForAllSubscriptions() {
        // A tracked read reads twice (the second closes the gap before Observation installs the
        // tracking of the first). The first subscription's read is tracked; the others find the
        // shared observation armed and read once, untracked.
        let scheduler = DispatchQueue.test
        let model = ReadCountingModel()
        let subscribers = (0..<10).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in subscribers { model.publisher(for: \.counted, scheduler: scheduler).subscribe(subscriber) }
        #expect(model.reads == 2 + 9, "each subscription makes its own first read")
        model.value = 1
        model.value = 2
        #expect(scheduler.scheduledCount == 1, "one read is scheduled for all of them")
        scheduler.advance()
        #expect(model.reads == 11 + 2)
        model.value = 3
        scheduler.advance()
        #expect(model.reads == 13 + 2)
        for subscriber in subscribers { #expect(subscriber.values == [0, 2, 3]) }
    }

    @Test func sharedSubscriptionsReceiveWhatASubscriptionAloneReceives() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let alone = TestSubscriber<Int, Never>()
        ObservationPublisher(scheduler: scheduler) { [model] in model.count }.subscribe(alone)
        let shared = (0..<5).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in shared { model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber) }
        for value in 1...20 {
            model.count = value
            if value % 3 == 0 { scheduler.advance() }
        }
        scheduler.advance()
        #expect(alone.values == [0, 3, 6, 9, 12, 15, 18, 20])
        for subscriber in shared { #expect(subscriber.values == alone.values) }
    }

    @Test func eachSubscriptionKeepsItsOwnDemand() throws {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let eager = TestSubscriber<Int, Never>()
        let patient = TestSubscriber<Int, Never>(initialDemand: .max(1))
        model.publisher(for: \.count, scheduler: scheduler).subscribe(eager)
        model.publisher(for: \.count, scheduler: scheduler).subscribe(patient)
        model.count = 1
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(eager.values == [0, 1, 2])
        #expect(patient.values == [0])
        patient.request(.max(1))
        #expect(patient.values == [0, 2], "the latest value waits for demand")
    }

    @Test func aSubscriptionThatJoinsAfterAChangeStartsFromTheNewValueOnly() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let first = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(first)
        model.count = 1
        let late = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(late)
        scheduler.advance()
        #expect(first.values == [0, 1])
        #expect(late.values == [1])
        model.count = 2
        scheduler.advance()
        #expect(late.values == [1, 2])
    }

    @Test func aSubscriptionThatAShareReadSkippedWhileItJoinedCatchesUp() {
        let scheduler = DispatchQueue.test
        let model = HookedModel()
        let first = TestSubscriber<Int, Never>()
        model.publisher(for: \.hooked, scheduler: scheduler).subscribe(first)
        model.value = 1
        // The second subscription's first read runs the shared read scheduled for that change, then
        // the model changes again: the shared read skips it (it was not ready), and it still gets
        // the change its own read may have missed.
        model.hook = {
            scheduler.advance()
            model.value = 2
        }
        let second = TestSubscriber<Int, Never>()
        model.publisher(for: \.hooked, scheduler: scheduler).subscribe(second)
        #expect(first.values == [0, 1])
        #expect(second.values == [2])
        scheduler.advance()
        #expect(first.values == [0, 1, 2])
        #expect(second.values.last == 2)
        #expect(second.values.allSatisfy { $0 == 2 }, "never a value older than its first")
    }

    @Test func cancellingOneLeavesTheOthersAndCancellingAllStopsReading() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let leaving = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(leaving)
        model.publisher(for: \.count, scheduler: scheduler).subscribe(staying)
        leaving.cancel()
        model.count = 1
        scheduler.advance()
        #expect(leaving.values == [0])
        #expect(staying.values == [0, 1])
        staying.cancel()
        scheduler.advance()
        model.count = 2
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aSubscriptionItsSubscriberLetsGoOfLeavesTheObservation() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        var events: [Int] = []
        do {
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: {
                    events.append($0); return .none
                })
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        }
        model.count = 1
        scheduler.advance()
        model.count = 2
        #expect(scheduler.scheduledCount == 0, "nothing is left to read for")
        #expect(events == [0])
    }

    @Test func aSubscriptionLetGoOfWhileOthersShareTheObservationIsFreedWithItsSubscriber() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        var values: [Int] = []
        let staying = model.publisher(for: \.count, scheduler: scheduler).sink { values.append($0) }
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: {
                    tracked.value = $0
                    return .none
                })
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        }
        #expect(weakTracked == nil, "the subscription and its subscriber are gone")
        model.count = 1
        scheduler.advance()
        #expect(values == [0, 1])
        _ = staying
    }

    @Test func differentSchedulersAndPropertiesDoNotShare() {
        let first = DispatchQueue.test
        let second = DispatchQueue.test
        let model = ObservedModel()
        let onFirst = TestSubscriber<Int, Never>()
        let onSecond = TestSubscriber<Int, Never>()
        let title = TestSubscriber<String, Never>()
        model.publisher(for: \.count, scheduler: first).subscribe(onFirst)
        model.publisher(for: \.count, scheduler: second).subscribe(onSecond)
        model.publisher(for: \.title, scheduler: first).subscribe(title)
        model.count = 1
        #expect(first.scheduledCount == 1)
        #expect(second.scheduledCount == 1)
        first.advance()
        #expect(onFirst.values == [0, 1])
        #expect(onSecond.values == [0])
        #expect(title.values == ["a"])
        second.advance()
        #expect(onSecond.values == [0, 1])
    }

    @Test func twoModelsDoNotShare() {
        let scheduler = DispatchQueue.test
        let one = ObservedModel()
        let other = ObservedModel()
        let ofOne = TestSubscriber<Int, Never>()
        let ofOther = TestSubscriber<Int, Never>()
        one.publisher(for: \.count, scheduler: scheduler).subscribe(ofOne)
        other.publisher(for: \.count, scheduler: scheduler).subscribe(ofOther)
        one.count = 1
        scheduler.advance()
        #expect(ofOne.values == [0, 1])
        #expect(ofOther.values == [0])
    }

    @Test func everySubscriptionFinishesWhenTheModelGoes() {
        let scheduler = DispatchQueue.test
        let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
        do {
            let model = ObservedModel()
            for subscriber in subscribers { model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber) }
            model.count = 4
        }
        scheduler.advance()
        for subscriber in subscribers {
            #expect(subscriber.values.first == 0)
            #expect(subscriber.completion == .finished)
        }
    }

    @Test func aNewModelAtAFreedModelsAddressStartsItsOwnObservation() {
        let scheduler = DispatchQueue.test
        for round in 0..<20 {
            let subscriber = TestSubscriber<Int, Never>()
            let model = ObservedModel()
            model.count = round
            model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
            model.count = round + 100
            scheduler.advance()
            #expect(subscriber.values == [round, round + 100])
            subscriber.cancel()
        }
    }

    /// Threads subscribe, request and cancel while another writes increasing values: each subscriber
    /// sees values in the order they were written, and every live one ends with the last value.
    @Test func subscribingRequestingAndCancellingFromSeveralThreadsDuringChanges() {
        let queue = DispatchQueue(label: "ObservationSharingTests")
        let model = ThreadSafeCounter()
        let writes = 2_000
        let subscribersPerThread = 40
        let finals = LockedState<[TestSubscriber<Int, Never>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                for value in 1...writes { model.value = value }
                return
            }
            var live: [TestSubscriber<Int, Never>] = []
            for index in 0..<subscribersPerThread {
                let subscriber = TestSubscriber<Int, Never>(initialDemand: index % 3 == 0 ? .max(1) : .unlimited)
                model.publisher(for: \.value, scheduler: queue).subscribe(subscriber)
                live.append(subscriber)
                if index % 4 == 1 { live.removeFirst().cancel() }
                if index % 3 == 0 { subscriber.request(.unlimited) }
            }
            finals.withLock { $0 += live }
        }
        queue.sync {}
        let last = model.value
        for subscriber in finals.withLock({ $0 }) {
            let values = subscriber.values
            #expect(values == values.sorted(), "values arrive in the order they were written")
            #expect(values.last == last)
            #expect(subscriber.completion == nil)
        }
    }
}
