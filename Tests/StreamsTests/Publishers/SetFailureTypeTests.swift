import Streams
import StreamsTesting
import Testing

@Suite struct SetFailureTypeTests {
    @Test func valuesAndFinishPassThroughUnderTheNewType() {
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(2))
        [1, 2, 3].publisher.setFailureType(to: FlowError.self).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func demandAndCancelReachTheUpstreamSubscription() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1))
        upstream.setFailureType(to: FlowError.self).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.subscriberDescription == "SetFailureType")
    }

    @Test func settingTheTypeTwiceKeepsOneLayer() {
        let subject = PassthroughSubject<Int, Never>()
        let twice: Publishers.SetFailureType<PassthroughSubject<Int, Never>, any Error> =
            subject.setFailureType(to: FlowError.self).setFailureType(to: (any Error).self)
        #expect(twice.upstream === subject)
        #expect([1].publisher.setFailureType(to: FlowError.self) == [1].publisher.setFailureType(to: FlowError.self))
    }
}
