import Streams
import StreamsTesting
import Testing

@Suite struct BreakpointTests {
    @Test func closuresAreConsultedForEveryEventAndEventsPassThrough() {
        var seen: [String] = []
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher
            .breakpoint(
                receiveSubscription: { subscription in
                    seen.append("subscription \(subscription)")
                    return false
                },
                receiveOutput: { value in
                    seen.append("output \(value)")
                    return false
                },
                receiveCompletion: { completion in
                    seen.append("completion \(completion)")
                    return false
                }
            )
            .subscribe(subscriber)
        #expect(seen == ["subscription [1, 2]", "output 1", "output 2", "completion finished"])
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func demandAndCancelPassThroughToUpstream() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.breakpoint().subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.max(1)), .cancelled])
        #expect(subscriber.subscription == nil)
        #expect(upstream.subscriberDescription == "Breakpoint")
    }

    @Test func breakpointOnErrorLetsValuesAndFinishThrough() {
        let subject = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        let publisher = subject.breakpointOnError()
        publisher.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(publisher.receiveSubscription == nil)
        #expect(publisher.receiveOutput == nil)
    }

    @Test func breakpointOnErrorAsksToStopOnlyForAFailure() {
        let check = Empty<Int, FlowError>().breakpointOnError().receiveCompletion
        #expect(check?(.finished) == false)
        #expect(check?(.failure(FlowError())) == true)
    }
}
