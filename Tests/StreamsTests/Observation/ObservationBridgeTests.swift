import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// An `@Observable` model that owns an `@ObservedPublisher`.
@Observable final class TitledModel {
    @ObservationIgnored @ObservedPublisher var title: String
    var subtitle = "sub"

    init(titles: CurrentValueSubject<String, Never>) {
        _title = ObservedPublisher(publisher: titles)
    }
}

/// A view model in the `ObservableObject` world that follows an `@Observable` model's property.
final class TitleViewModel: ObservableObject {
    @ObservedPublisher var title: String

    init<S: Scheduler>(model: ObservedModel, scheduler: S) {
        _title = ObservedPublisher(publisher: model.publisher(for: \.title, scheduler: scheduler))
    }
}

@Observable final class InboxModel {
    var messages: [String] = []
    var isSyncing = false
}

@Suite struct ObservationBridgeTests {
    @Test func observedPublisherFollowsAnObservationPublisher() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let viewModel = TitleViewModel(model: model, scheduler: scheduler)
        #expect(viewModel.title == "a")
        var announced: [String] = []
        let cancellable = viewModel.objectDidChange.sink { announced.append(viewModel.title) }
        model.title = "b"
        model.title = "c"
        #expect(viewModel.title == "a")
        scheduler.advance()
        #expect(viewModel.title == "c")
        #expect(announced == ["c"])
        _ = cancellable
    }

    @Test func observedPublisherWithAnInitialValueFollowsAnObservationPublisher() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let observed = ObservedPublisher(publisher: model.publisher(for: \.count, scheduler: scheduler), initial: -1)
        #expect(observed.wrappedValue == 0)
        model.count = 5
        scheduler.advance()
        #expect(observed.wrappedValue == 5)
    }

    @Test func observedPublisherNeedsALiveModel() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = ObservedModel().publisher(for: \.count, scheduler: DispatchQueue.test)
            _ = ObservedPublisher(publisher: publisher)
        }
        expectTrapMessage(
            trap1, contains: "ObservedPublisher(publisher:) needs a value: the observed model is deallocated")
    }

    @Test func theWrappedValueOfAnObservedPublisherIsTracked() {
        let titles = CurrentValueSubject<String, Never>("one")
        let model = TitledModel(titles: titles)
        let changes = TestSubscriber<Void, Never>()
        let signal = PassthroughSubject<Void, Never>()
        signal.subscribe(changes)
        let title = withObservationTracking({ model.title }, onChange: { [signal] in signal.send(()) })
        #expect(title == "one")
        titles.send("two")
        #expect(changes.values.count == 1)
        #expect(model.title == "two")
    }

    @Test func anObservableOwnerOfAnObservedPublisherPublishesItsChanges() {
        let scheduler = DispatchQueue.test
        let titles = CurrentValueSubject<String, Never>("one")
        let model = TitledModel(titles: titles)
        let subscriber = TestSubscriber<String, Never>()
        ObservationPublisher(scheduler: scheduler) { model.title + "/" + model.subtitle }.subscribe(subscriber)
        titles.send("two")
        scheduler.advance()
        model.subtitle = "next"
        scheduler.advance()
        let keyPathSubscriber = TestSubscriber<String, Never>()
        model.publisher(for: \.title, scheduler: scheduler).subscribe(keyPathSubscriber)
        titles.send("three")
        scheduler.advance()
        #expect(subscriber.values == ["one/sub", "two/sub", "two/next", "three/next"])
        #expect(keyPathSubscriber.values == ["two", "three"])
    }

    @Test func deduplicatedModelForwardsOnlyWhenTheSnapshotChanges() {
        let scheduler = DispatchQueue.test
        let inbox = InboxModel()
        let badge = inbox.deduplicated(on: scheduler) { $0.messages.isEmpty }
        var forwarded = 0
        let cancellable = badge.objectWillChange.sink { forwarded += 1 }
        #expect(badge.snapshot == true)
        inbox.isSyncing = true
        #expect(scheduler.scheduledCount == 0)
        inbox.messages.append("Hello")
        inbox.messages.append("Again")
        scheduler.advance()
        #expect(forwarded == 1)
        #expect(badge.snapshot == false)
        inbox.messages.append("Third")
        scheduler.advance()
        #expect(forwarded == 1)
        inbox.messages = []
        scheduler.advance()
        #expect(forwarded == 2)
        #expect(badge.messages == [])
        badge.isSyncing = false
        #expect(inbox.isSyncing == false)
        _ = cancellable
    }

    @Test func deduplicatedModelIsReleasedWithItsModel() {
        let scheduler = DispatchQueue.test
        weak var weakWrapper: Deduplicated<InboxModel, Int>?
        weak var weakModel: InboxModel?
        do {
            let inbox = InboxModel()
            weakModel = inbox
            let wrapper = Deduplicated(inbox, scheduler: scheduler) { $0.messages.count }
            weakWrapper = wrapper
            inbox.messages = ["x"]
            scheduler.advance()
            #expect(wrapper.snapshot == 1)
        }
        #expect(weakWrapper == nil)
        #expect(weakModel == nil)
        scheduler.advance()
    }
}
