import Streams
import StreamsTesting
import Testing

@Suite struct SinkTests {
    @Test func receivesValuesAndCompletion() {
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        let cancellable = [1, 2, 3].publisher.setFailure(TestError.self)
            .sink(receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        #expect(values == [1, 2, 3])
        #expect(completions == [.finished])
        _ = cancellable
    }

    @Test func receivesFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        let cancellable = subject.sink(
            receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        subject.send(1)
        subject.send(completion: .failure(TestError(code: 4)))
        #expect(values == [1])
        #expect(completions == [.failure(TestError(code: 4))])
        _ = cancellable
    }

    @Test func requestsUnlimitedAndCancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(second.cancelCount == 1)
        sink.cancel()
        #expect(first.cancelCount == 1)
    }

    @Test func releasesClosuresOnCancelAndOnCompletion() {
        weak var weakTracked: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            cancellable = subject.sink { tracked.value = $0 }
        }
        subject.send(5)
        #expect(weakTracked?.value == 5)
        cancellable?.cancel()
        #expect(weakTracked == nil)

        do {
            let tracked = Tracked()
            weakTracked = tracked
            cancellable = subject.sink { tracked.value = $0 }
        }
        subject.send(completion: .finished)
        #expect(weakTracked == nil)
    }

    @Test func cancelBeforeASubscriptionDoesNothing() {
        weak var weakTracked: Tracked?
        let sink: Subscribers.Sink<Int, Never>
        do {
            let tracked = Tracked()
            weakTracked = tracked
            sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { tracked.value = $0 })
        }
        sink.cancel()
        // The closures are kept, and a subscription that arrives later is accepted.
        #expect(weakTracked != nil)
        let upstream = RecordingSubscription()
        sink.receive(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == 0)
        _ = sink.receive(3)
        #expect(weakTracked?.value == 3)
        sink.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(weakTracked == nil)
    }

    @Test func releasingTheCancellableCancels() {
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var cancellable: AnyCancellable? = subject.sink { values.append($0) }
        subject.send(1)
        cancellable = nil
        subject.send(2)
        #expect(values == [1])
        #expect(cancellable == nil)
    }

    @Test func reflection() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(String(describing: sink.playgroundDescription) == "Sink")
        #expect(sink.customMirror.children.isEmpty)
    }
}

/// A subscription that records what it was asked.
final class RecordingSubscription: Subscription, @unchecked Sendable {
    // @unchecked: used from one thread at a time in the tests that create it.
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancelCount = 0

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
    }

    func cancel() {
        cancelCount += 1
    }
}

extension Publisher where Failure == Never {
    /// The same publisher with a failure type, without depending on `setFailureType`.
    func setFailure<E: Error>(_: E.Type) -> AnyPublisher<Output, E> {
        AnyPublisher(FailureRetyped<Self, E>(upstream: self))
    }
}

/// Re-types a never-failing publisher's failure for tests.
struct FailureRetyped<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
    typealias Output = Upstream.Output
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(
            AnySubscriber<Output, Never>(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
    }
}
