import Streams
import StreamsTesting
import Testing

@Suite struct PrintTests {
    @Test func logsEveryEventWithThePrefix() {
        let stream = FlowTextStream()
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.print("numbers", to: stream).subscribe(subscriber)
        #expect(
            stream.lines == [
                "numbers: receive subscription: ([1, 2])",
                "numbers: request unlimited",
                "numbers: receive value: (1)",
                "numbers: receive value: (2)",
                "numbers: receive finished",
            ])
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func withoutPrefixLinesStartWithTheEvent() {
        let stream = FlowTextStream()
        let subscriber = TestSubscriber<String, Never>()
        ["A"].publisher.print(to: stream).subscribe(subscriber)
        #expect(
            stream.lines == [
                "receive subscription: ([\"A\"])", "request unlimited", "receive value: (A)", "receive finished",
            ])
    }

    @Test func writesEachLineTheWayPrintDoes() {
        let stream = FlowTextStream()
        Empty<Int, Never>().print("p", to: stream).subscribe(TestSubscriber<Int, Never>())
        #expect(
            stream.writes == [
                "", "p: receive subscription: (Empty)", "\n", "", "p: request unlimited", "\n", "",
                "p: receive finished", "\n",
            ])
    }

    @Test func boundedAndSynchronousDemandAreLogged() {
        let stream = FlowTextStream()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 1 ? .max(1) : .unlimited }
        [1, 2, 3].publisher.print(to: stream).subscribe(subscriber)
        #expect(
            stream.lines == [
                "receive subscription: ([1, 2, 3])",
                "request max: (1)",
                "receive value: (1)",
                "request max: (1) (synchronous)",
                "receive value: (2)",
                "request unlimited (synchronous)",
                "receive value: (3)",
                "request unlimited (synchronous)",
                "receive finished",
            ])
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func failureAndCancelAreLogged() {
        let stream = FlowTextStream()
        let subject = PassthroughSubject<Int, FlowError>()
        let failing = TestSubscriber<Int, FlowError>()
        subject.print("f", to: stream).subscribe(failing)
        subject.send(completion: .failure(FlowError(2)))
        let upstream = FlowPublisher<Int, FlowError>()
        let cancelling = TestSubscriber<Int, FlowError>(initialDemand: .max(3))
        upstream.print("c", to: stream).subscribe(cancelling)
        cancelling.cancel()
        #expect(
            stream.lines == [
                "f: receive subscription: (PassthroughSubject)",
                "f: request unlimited",
                "f: receive error: (FlowError(2))",
                "c: receive subscription: (FlowSubscription)",
                "c: request max: (3)",
                "c: receive cancel",
            ])
        #expect(failing.events == [.subscription, .completion(.failure(FlowError(2)))])
        #expect(upstream.subscription?.history == [.requested(.max(3)), .cancelled])
    }

    @Test func requestsAfterCancelAreLoggedButNotForwarded() {
        let stream = FlowTextStream()
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.print(to: stream).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(1))
        #expect(stream.lines == ["receive subscription: (FlowSubscription)", "receive cancel", "request max: (1)"])
        #expect(upstream.subscription?.history == [.cancelled])
    }

    @Test func reentrantRequestFromReceiveValueIsLoggedInOrder() {
        let stream = FlowTextStream()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { value in
            if value == 1 { subscriber.request(.max(1)) }
        }
        [1, 2, 3].publisher.print(to: stream).subscribe(subscriber)
        #expect(
            stream.lines == [
                "receive subscription: ([1, 2, 3])", "request max: (1)", "receive value: (1)", "request max: (1)",
                "receive value: (2)",
            ])
        #expect(subscriber.values == [1, 2])
    }

    @Test func keepsItsConfiguration() {
        let stream = FlowTextStream()
        let publisher = Just(1).print("x", to: stream)
        #expect(publisher.prefix == "x")
        #expect(publisher.stream != nil)
        #expect(Just(1).print().stream == nil)
    }

    @Test func describesItselfAsPrint() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.print(to: FlowTextStream()).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Print")
        #expect(upstream.subscriberDescription == "Print")
    }

    @Test func printsToStandardOutputWithoutAStream() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let cancellable = [7].publisher.print("out").sink { _ in }
            cancellable.cancel()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(
            output.hasSuffix(
                "out: receive subscription: ([7])\nout: request unlimited\nout: receive value: (7)\nout: receive finished\n"
            ))
    }

    @Test func releasesTheSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.print(to: FlowTextStream()).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }
}
