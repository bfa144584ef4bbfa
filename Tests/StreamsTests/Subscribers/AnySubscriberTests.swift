import Streams
import StreamsTesting
import Testing

@Suite struct AnySubscriberTests {
    @Test func forwardsToTheWrappedSubscriber() {
        let recorder = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        [1, 2, 3].publisher.subscribe(erased)
        #expect(recorder.values == [1, 2])
    }

    @Test func wrappingTwiceKeepsTheIdentity() {
        let recorder = TestSubscriber<Int, Never>()
        let once = AnySubscriber(recorder)
        let twice = AnySubscriber(once)
        #expect(twice.combineIdentifier == once.combineIdentifier)
    }

    @Test func closuresAndTheirDemand() {
        var values: [Int] = []
        var completion: Subscribers.Completion<Never>?
        let erased = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                values.append(value)
                return value < 3 ? .max(1) : .none
            },
            receiveCompletion: { completion = $0 })
        [1, 2, 3, 4, 5].publisher.subscribe(erased)
        #expect(values == [1, 2, 3])
        #expect(completion == nil)
        #expect(erased.description == "Anonymous AnySubscriber")
        #expect(erased.playgroundDescription as? String == "Anonymous AnySubscriber")
        let mirror = erased.customMirror
        #expect(String(describing: mirror.subjectType) == "String")
        #expect(mirror.children.isEmpty)
    }

    @Test func wrappingASubjectDescribesItselfAsSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let erased = AnySubscriber(subject)
        #expect(erased.description == "Subject")
        let labels = erased.customMirror.children.map(\.label)
        #expect(labels == ["downstreamSubject", "upstreamSubscription", "subject"])
    }

    @Test func wrappingASubjectForwardsUntilTheFirstCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let erased = AnySubscriber(subject)
        let upstream = RecordingSubscription()
        erased.receive(subscription: upstream)
        // The subject asked for everything once its subscriber had.
        #expect(upstream.requests == [.unlimited])
        #expect(erased.receive(1) == .none)
        erased.receive(completion: .finished)
        #expect(erased.receive(2) == .none)
        erased.receive(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func forwardsToASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestSubscriber<Int, Never>()
        subject.subscribe(recorder)
        [7, 8].publisher.subscribe(AnySubscriber(subject))
        #expect(recorder.events == [.subscription, .value(7), .value(8), .completion(.finished)])
    }

    @Test func sharesTheWrappedDescription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(AnySubscriber(sink).description == "Sink")
    }
}
