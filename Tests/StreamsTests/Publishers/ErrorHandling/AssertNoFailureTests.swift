import Streams
import StreamsTesting
import Testing

@Suite struct AssertNoFailureTests {
    @Test func valuesAndFinishPassThrough() {
        let subject = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.assertNoFailure().subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func demandAndCancelPassThroughToUpstream() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.assertNoFailure().subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.max(2)), .requested(.max(1)), .cancelled])
        #expect(upstream.subscriberDescription == "AssertNoFailure")
    }

    @Test func keepsPrefixFileAndLine() {
        let publisher = Empty<Int, FlowError>().assertNoFailure("checked", file: "Here.swift", line: 12)
        #expect(publisher.prefix == "checked")
        #expect(publisher.file.description == "Here.swift")
        #expect(publisher.line == 12)
        let defaulted = Empty<Int, FlowError>().assertNoFailure()
        #expect(defaulted.prefix == "")
        #expect(defaulted.line == #line - 2)
    }

    @Test func failureStopsTheProcessWithPrefixErrorFileAndLine() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, FlowError>()
            let cancellable = subject.assertNoFailure("numbers", file: "Pipeline.swift", line: 77).sink { _ in }
            subject.send(completion: .failure(FlowError(9)))
            cancellable.cancel()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Pipeline.swift:77"))
        #expect(message.contains("numbers: FlowError(9)"))
    }

    @Test func failureWithoutPrefixPrintsTheBareError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cancellable = Fail<Int, FlowError>(error: FlowError(4)).assertNoFailure().sink { _ in }
            cancellable.cancel()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Fatal error: FlowError(4)"))
    }
}
