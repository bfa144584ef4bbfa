import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// The state of a screen, as a view model would publish it.
private struct ScreenState {
    var viewState: ViewState
    var refreshCount: Int
}

/// The part of the state the view renders.
private struct ViewState: Equatable {
    var title: String
    var isLoading: Bool
}

@Suite(.timeLimit(.minutes(3))) struct MapTests {
    @Test func transformsEveryValueThenFinishes() {
        let subscriber = TestSubscriber<String, Never>()
        [1, 2, 3].publisher.map { "\($0 * 2)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("2"), .value("4"), .value("6"), .completion(.finished)])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        upstream.map { -$0 }.subscribe(subscriber)
        upstream.send(4)
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .value(-4), .completion(.failure(.upstream))])
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.map { $0 }.subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.calls == [.request(.max(2))])
        #expect(upstream.send(1) == .max(3))
        subscriber.request(.max(4))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(2)), .request(.max(4)), .cancel])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.map { $0 * 100 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(100), .value(200)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [100, 200, 300])
        subscriber.request(.max(5))
        #expect(subscriber.events.last == .completion(.finished))
        #expect(subscriber.values == [100, 200, 300, 400, 500])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 20 { subscriber.cancel() }
        }
        subject.map { $0 * 10 }.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        #expect(subscriber.events == [.subscription, .value(10), .value(20)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...4).publisher.map { $0 + 10 }.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(11), .value(12), .value(13), .value(14), .completion(.finished),
            ])
    }

    @Test func subscriberIsNamedMap() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        upstream.map { $0 }.subscribe(TestSubscriber<Int, Never>())
        let reflection = TransformReflection(of: try #require(upstream.subscriber))
        #expect(reflection.description == "Map")
        #expect(reflection.playgroundDescription == "Map")
        #expect(reflection.childLabels == [])
    }

    @Test func viewStatePipelinePublishesOnlyChanges() {
        let subject = PassthroughSubject<ScreenState, Never>()
        let viewStates: AnyPublisher<ViewState, Never> =
            subject
            .map { $0.viewState }
            .removeDuplicates()
            .eraseToAnyPublisher()
        let subscriber = TestSubscriber<ViewState, Never>()
        viewStates.subscribe(subscriber)

        let loading = ViewState(title: "Inbox", isLoading: true)
        let loaded = ViewState(title: "Inbox", isLoading: false)
        subject.send(ScreenState(viewState: loading, refreshCount: 0))
        subject.send(ScreenState(viewState: loading, refreshCount: 1))
        subject.send(ScreenState(viewState: loaded, refreshCount: 1))
        subject.send(ScreenState(viewState: loaded, refreshCount: 2))
        subject.send(ScreenState(viewState: loading, refreshCount: 3))
        subject.send(completion: .finished)

        #expect(
            subscriber.events == [
                .subscription, .value(loading), .value(loaded), .value(loading), .completion(.finished),
            ])
    }

    @Test func viewStatePipelineStartsFromTheCurrentValue() {
        let initial = ViewState(title: "Feed", isLoading: true)
        let subject = CurrentValueSubject<ScreenState, Never>(ScreenState(viewState: initial, refreshCount: 0))
        var received: [ViewState] = []
        let cancellable = subject.map { $0.viewState }.removeDuplicates().eraseToAnyPublisher()
            .sink { received.append($0) }
        subject.value.refreshCount = 1
        subject.value.viewState.isLoading = false
        subject.value.refreshCount = 2
        cancellable.cancel()
        subject.value.viewState.title = "Gone"
        #expect(received == [initial, ViewState(title: "Feed", isLoading: false)])
    }

    @Test func fusedMapIsOneMapApplyingBothInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let fused = subject.map { $0 + 1 }.map { "\($0 * 10)" }
        #expect(type(of: fused) == Publishers.Map<PassthroughSubject<Int, Never>, String>.self)
        #expect(fused.upstream === subject)
        let subscriber = TestSubscriber<String, Never>()
        fused.subscribe(subscriber)
        subject.send(1)
        subject.send(4)
        #expect(subscriber.values == ["20", "50"])
    }

    @Test func fusedTryMapIsOneTryMap() throws {
        let subject = PassthroughSubject<Int, Never>()
        let fused = subject.map { $0 - 1 }.tryMap { value -> Int in
            if value == 0 { throw TransformTestError.thrown(value) }
            return 12 / value
        }
        #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, Int>.self)
        #expect(fused.upstream === subject)
        let subscriber = TestSubscriber<Int, any Error>()
        fused.subscribe(subscriber)
        #expect(TransformReflection(of: try #require(subscriber.subscription)).description == "TryMap")
        subject.send(4)
        subject.send(3)
        subject.send(1)
        subject.send(5)
        #expect(subscriber.transformEvents == [.subscription, .value(4), .value(6), .completion(.failure(.thrown(0)))])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.map { $0 }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            subscriber.cancel()
            subject.send(1)
            #expect(subscriber.values == [])
        }
        #expect(weakSubject == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.map { $0 }.subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            subject.send(completion: .finished)
            #expect(subscriber.events == [.subscription, .completion(.finished)])
        }
        #expect(weakSubject == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentSendsAreAllTransformed() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.map { $0 * 3 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread * 500 + index) }
        }
        #expect(subscriber.values.count == 4_000)
        #expect(subscriber.values.reduce(0, +) == 3 * (0..<4_000).reduce(0, +))
    }
}
