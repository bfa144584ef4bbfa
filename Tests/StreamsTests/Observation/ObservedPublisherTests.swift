import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct ObservedPublisherTests {
    struct AppState: Equatable {
        var title = "Inbox"
        var unread = 0
    }

    final class TitleModel: ObservableObject {
        @ObservedPublisher var title: String
        @Published var other = 0

        init(store: CurrentValueSubject<AppState, Never>) {
            _title = ObservedPublisher(publisher: store.map(\.title).removeDuplicates(), initial: "")
        }
    }

    @Test func holdsTheLatestValueAndTellsTheOwnerBeforeStoring() {
        let store = CurrentValueSubject<AppState, Never>(AppState())
        let model = TitleModel(store: store)
        #expect(model.title == "Inbox")
        var seen: [String] = []
        let cancellable = model.objectWillChange.sink { seen.append(model.title) }
        store.value.unread = 3
        store.value.title = "Sent"
        store.value.title = "Drafts"
        #expect(model.title == "Drafts")
        #expect(seen == ["Inbox", "Sent"])
        _ = cancellable
    }

    @Test func projectedPublisherReplaysAndFollows() {
        let subject = PassthroughSubject<Int, Never>()
        let observed = ObservedPublisher(publisher: subject, initial: 0)
        let recorder = TestSubscriber<Int, Never>()
        observed.projectedValue.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0, 1, 2])
        #expect(observed.wrappedValue == 2)
    }

    /// A subscriber that attaches once the new value is stored (here, from the owner's did-change)
    /// starts from that value: the value is stored and published as one step, so no subscriber
    /// starts from an older value than `wrappedValue` returns.
    @Test func aSubscriberAttachingOnceAValueIsStoredStartsFromIt() {
        let store = CurrentValueSubject<AppState, Never>(AppState())
        let model = TitleModel(store: store)
        let late = TestSubscriber<String, Never>()
        var readWhenAttaching: [String] = []
        let cancellable = model.objectDidChange.sink {
            guard readWhenAttaching.isEmpty else { return }
            readWhenAttaching.append(model.title)
            model.$title.subscribe(late)
        }
        store.value.title = "Sent"
        store.value.title = "Drafts"
        #expect(readWhenAttaching == ["Sent"])
        #expect(late.values == ["Sent", "Drafts"])
        _ = cancellable
    }

    @Test func currentValueSubjectNeedsNoInitialValue() {
        let subject = CurrentValueSubject<String, Never>("now")
        let observed = ObservedPublisher(publisher: subject)
        #expect(observed.wrappedValue == "now")
        subject.value = "later"
        #expect(observed.wrappedValue == "later")
    }

    @Test func releasingTheWrapperCancelsAndReleasesTheSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscription: AnyObject?
        var upstreamEvents: [String] = []
        var observed: ObservedPublisher<Int>? = ObservedPublisher(
            publisher: subject.handleEvents(
                receiveSubscription: { weakSubscription = $0 as AnyObject },
                receiveCancel: { upstreamEvents.append("cancel") }),
            initial: 0)
        subject.send(4)
        #expect(observed?.wrappedValue == 4)
        #expect(weakSubscription != nil)
        observed = nil
        #expect(upstreamEvents == ["cancel"])
        #expect(weakSubscription == nil)
        subject.send(5)
        #expect(upstreamEvents == ["cancel"])
    }

    @Test func ownerIsReleasedWithItsWrapper() {
        let store = CurrentValueSubject<AppState, Never>(AppState())
        weak var weakModel: TitleModel?
        do {
            let model = TitleModel(store: store)
            weakModel = model
            let cancellable = model.objectWillChange.sink {}
            store.value.title = "x"
            cancellable.cancel()
        }
        #expect(weakModel == nil)
        store.value.title = "y"
    }

    @Test func deliversOnTheGivenScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let observed = ObservedPublisher(publisher: subject, initial: 0, scheduler: scheduler)
        subject.send(1)
        subject.send(2)
        #expect(observed.wrappedValue == 0)
        scheduler.advance()
        #expect(observed.wrappedValue == 2)
    }
}

/// The store the attribute-syntax test observes, as the pattern's original keeps it: a global.
let attributeSyntaxStore = CurrentValueSubject<ObservedPublisherAttributeSyntaxTests.State, Never>(.init())

/// `@ObservedPublisher(publisher:initial:) var …`, written exactly as the pattern writes it.
@Suite struct ObservedPublisherAttributeSyntaxTests {
    struct State: Equatable {
        var title = "Inbox"
        var unread = 0
    }

    final class Screen: ObservableObject {
        @ObservedPublisher(publisher: attributeSyntaxStore.map(\.title).removeDuplicates(), initial: "")
        var title: String
    }

    @Test func attributeSyntaxFollowsTheStore() {
        let screen = Screen()
        #expect(screen.title == attributeSyntaxStore.value.title)
        var renders = 0
        let cancellable = screen.objectWillChange.sink { renders += 1 }
        attributeSyntaxStore.value.unread += 1
        attributeSyntaxStore.value.title = "Archive"
        #expect(screen.title == "Archive")
        #expect(renders == 1)
        _ = cancellable
    }
}
