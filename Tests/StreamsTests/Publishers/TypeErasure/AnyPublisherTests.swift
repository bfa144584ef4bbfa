import Streams
import StreamsTesting
import Testing

@Suite struct AnyPublisherTests {
    @Test func forwardsSubscriptionsWithDemand() {
        let erased: AnyPublisher<Int, Never> = [1, 2, 3].publisher.eraseToAnyPublisher()
        let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1))
        erased.subscribe(recorder)
        #expect(recorder.values == [1])
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func erasingAnErasedPublisherIsFree() {
        let subject = PassthroughSubject<Int, Never>()
        let once = subject.eraseToAnyPublisher()
        let twice = AnyPublisher(once)
        let recorder = TestSubscriber<Int, Never>()
        twice.subscribe(recorder)
        subject.send(3)
        #expect(recorder.values == [3])
        #expect(twice.description == "AnyPublisher")
    }

    @Test func theArticlePatternCompiles() {
        struct AppState: Equatable {
            var viewState = 0
            var other = ""
        }
        let subject = CurrentValueSubject<AppState, Never>(AppState())
        let slice: AnyPublisher<Int, Never> = subject.map { $0.viewState }.removeDuplicates().eraseToAnyPublisher()
        var received: [Int] = []
        var cancellables = Set<AnyCancellable>()
        slice.sink { received.append($0) }.store(in: &cancellables)
        subject.value.other = "x"
        subject.value.viewState = 1
        subject.value.other = "y"
        subject.value.viewState = 1
        subject.value.viewState = 2
        #expect(received == [0, 1, 2])
    }
}
