import Streams
import StreamsTesting
import Testing

@Suite struct FailTests {
    @Test func failsImmediatelyWithoutDemand() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Fail<Int, CreateTestError>(error: CreateTestError(code: 3)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(CreateTestError(code: 3)))])
    }

    @Test func everySubscriberGetsTheFailure() {
        let fail = Fail<String, CreateTestError>(error: CreateTestError(code: 1))
        let first = TestSubscriber<String, CreateTestError>()
        let second = TestSubscriber<String, CreateTestError>()
        fail.subscribe(first)
        fail.subscribe(second)
        #expect(first.completion == .failure(CreateTestError(code: 1)))
        #expect(second.events == first.events)
    }

    @Test func outputTypeInitializer() {
        let fail = Fail(outputType: Double.self, failure: CreateTestError(code: 8))
        #expect(fail.error == CreateTestError(code: 8))
        let subscriber = TestSubscriber<Double, CreateTestError>()
        fail.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(CreateTestError(code: 8)))])
    }

    @Test func equatableComparesTheError() {
        #expect(Fail<Int, CreateTestError>(error: CreateTestError(code: 1)) == Fail(error: CreateTestError(code: 1)))
        #expect(Fail<Int, CreateTestError>(error: CreateTestError(code: 1)) != Fail(error: CreateTestError(code: 2)))
    }

    @Test func subscriptionIsTheEmptySubscription() {
        var description: String?
        let subscriber = AnySubscriber<Int, CreateTestError>(
            receiveSubscription: { description = String(describing: $0) },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in })
        Fail<Int, CreateTestError>(error: CreateTestError()).subscribe(subscriber)
        #expect(description == "Empty")
    }

    @Test func doesNotKeepTheSubscriber() {
        weak var weakSubscriber: TestSubscriber<Int, CreateTestError>?
        do {
            let subscriber = TestSubscriber<Int, CreateTestError>()
            Fail<Int, CreateTestError>(error: CreateTestError()).subscribe(subscriber)
            weakSubscriber = subscriber
        }
        #expect(weakSubscriber == nil)
    }
}
