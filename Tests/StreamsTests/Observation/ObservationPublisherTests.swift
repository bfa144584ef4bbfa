import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

@Observable final class ObservedSettings {
    var theme = "light"
}

@Observable final class ObservedModel {
    var title = "a"
    var count = 0
    var useFirst = true
    var first = "first"
    var last = "last"
    var settings = ObservedSettings()
    var box = Box(value: 0)
    @ObservationIgnored var ignored = 0

    var shouting: String { title.uppercased() }
}

/// A value that is not `Equatable`: every write of it is signalled.
struct Box {
    var value: Int
}

@Suite struct ObservationPublisherTests {
    @Test func publishesTheCurrentValueThenEachNewValueOnceTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.title, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == ["a"])
        model.title = "b"
        #expect(subscriber.values == ["a"])
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(subscriber.values == ["a", "b"])
        model.title = "c"
        scheduler.advance()
        #expect(subscriber.values == ["a", "b", "c"])
        #expect(subscriber.completion == nil)
    }

    @Test func aSinkReceivesUntilCancelledOrCompletedByHand() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        var received: [String] = []
        let completedByHand = Subscribers.Sink<String, Never>(
            receiveCompletion: { _ in }, receiveValue: { received.append("by hand \($0)") })
        model.publisher(for: \.title, scheduler: scheduler).subscribe(completedByHand)
        var cancellable: AnyCancellable? = model.publisher(for: \.title, scheduler: scheduler)
            .sink { received.append("cancelled \($0)") }
        model.title = "b"
        scheduler.advance()
        completedByHand.receive(completion: .finished)
        cancellable?.cancel()
        cancellable = nil
        model.title = "c"
        scheduler.advance()
        #expect(received == ["by hand a", "cancelled a", "by hand b", "cancelled b"])
    }

    @Test func aSubscriberReadingTheModelSeesTheNewValue() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        var seenInModel: [String] = []
        let cancellable = model.publisher(for: \.title, options: .new, scheduler: scheduler)
            .sink { _ in seenInModel.append(model.title) }
        model.title = "b"
        scheduler.advance()
        #expect(seenInModel == ["b"])
        _ = cancellable
    }

    @Test func initialOnlyPublishesTheCurrentValueAndFinishes() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.title, options: .initial, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == ["a"])
        #expect(subscriber.completion == .finished)
        model.title = "b"
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func newOnlySkipsTheCurrentValue() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.title, options: .new, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [])
        model.title = "b"
        scheduler.advance()
        #expect(subscriber.values == ["b"])
    }

    @Test func noOptionsFinishesAtOnce() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.title, options: [], scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [])
        #expect(subscriber.completion == .finished)
    }

    @Test func writesBeforeTheSchedulerRunsCoalesceIntoTheLatestValue() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        model.count = 1
        model.count = 2
        model.count = 3
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(subscriber.values == [0, 3])
        scheduler.advance()
        #expect(subscriber.values == [0, 3])
    }

    @Test func anEqualWriteIsNotSignalledButAnyWriteOfANonEquatableValueIs() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let titles = TestSubscriber<String, Never>()
        let boxes = TestSubscriber<Int, Never>()
        model.publisher(for: \.title, scheduler: scheduler).subscribe(titles)
        model.publisher(for: \.box.value, scheduler: scheduler).subscribe(boxes)
        model.title = "a"
        #expect(scheduler.scheduledCount == 0)
        model.box = Box(value: 0)
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(titles.values == ["a"])
        #expect(boxes.values == [0, 0])
    }

    @Test func nestedKeyPathsFollowBothModels() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let oldSettings = model.settings
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.settings.theme, scheduler: scheduler).subscribe(subscriber)
        model.settings.theme = "dark"
        scheduler.advance()
        let newSettings = ObservedSettings()
        newSettings.theme = "blue"
        model.settings = newSettings
        scheduler.advance()
        oldSettings.theme = "ignored"
        #expect(scheduler.scheduledCount == 0)
        newSettings.theme = "green"
        scheduler.advance()
        #expect(subscriber.values == ["light", "dark", "blue", "green"])
    }

    @Test func computedPropertiesPublishWhenWhatTheyReadChanges() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.shouting, scheduler: scheduler).subscribe(subscriber)
        model.title = "hey"
        scheduler.advance()
        #expect(subscriber.values == ["A", "HEY"])
    }

    @Test func anExpressionIsTrackedAgainAfterEachChange() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        ObservationPublisher(scheduler: scheduler) { model.useFirst ? model.first : model.last }
            .subscribe(subscriber)
        model.last = "LAST"
        #expect(scheduler.scheduledCount == 0)
        model.useFirst = false
        scheduler.advance()
        #expect(subscriber.values == ["first", "LAST"])
        model.first = "FIRST"
        #expect(scheduler.scheduledCount == 0)
        model.last = "end"
        scheduler.advance()
        #expect(subscriber.values == ["first", "LAST", "end"])
    }

    @Test func anExpressionCombinesSeveralProperties() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<String, Never>()
        ObservationPublisher(scheduler: scheduler) { model.first + " " + model.last }.subscribe(subscriber)
        model.first = "Ada"
        model.last = "Lovelace"
        scheduler.advance()
        #expect(subscriber.values == ["first last", "Ada Lovelace"])
    }

    @Test func anExpressionThatReadsNothingObservableFinishesAfterItsValue() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.ignored, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [0])
        scheduler.advance()
        #expect(subscriber.completion == .finished)
    }

    @Test func aSubscriberWritingTheModelGetsTheValueOnTheNextRun() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        var seen: [Int] = []
        let cancellable = model.publisher(for: \.count, scheduler: scheduler).sink { value in
            seen.append(value)
            if value < 3 { model.count = value + 1 }
        }
        #expect(seen == [0])
        scheduler.advance()
        #expect(seen == [0, 1, 2, 3])
        #expect(scheduler.scheduledCount == 0)
        _ = cancellable
    }

    @Test func eachSubscriberTracksOnItsOwn() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let publisher = model.publisher(for: \.title, scheduler: scheduler)
        let first = TestSubscriber<String, Never>()
        let second = TestSubscriber<String, Never>()
        publisher.subscribe(first)
        model.title = "b"
        publisher.subscribe(second)
        scheduler.advance()
        first.cancel()
        model.title = "c"
        scheduler.advance()
        #expect(first.values == ["a", "b"])
        #expect(second.values == ["b", "c"])
    }
}
