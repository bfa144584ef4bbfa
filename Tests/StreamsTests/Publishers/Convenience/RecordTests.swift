import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct RecordTests {
    typealias Sut = Record<Int, CreateTestError>

    @Test func playsBackValuesThenTheCompletion() {
        let subscriber = TestSubscriber<Int, CreateTestError>()
        Sut(output: [1, 2, 3], completion: .failure(CreateTestError(code: 9))).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .completion(.failure(CreateTestError(code: 9))),
            ])
    }

    @Test func recordsInteractively() {
        let record = Sut { recording in
            recording.receive(4)
            recording.receive(5)
            recording.receive(completion: .finished)
        }
        #expect(record.recording.output == [4, 5])
        #expect(record.recording.completion == .finished)
        let subscriber = TestSubscriber<Int, CreateTestError>()
        record.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .completion(.finished)])
    }

    @Test func recordingWithoutCompletionFinishes() {
        let record = Sut { $0.receive(1) }
        let subscriber = TestSubscriber<Int, CreateTestError>()
        record.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func emptyRecordingCompletesAtOnceWithTheEmptySubscription() throws {
        let finished = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut { _ in }.subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        var description: String?
        let failed = Sut { $0.receive(completion: .failure(CreateTestError(code: 1))) }
        var completion: Subscribers.Completion<CreateTestError>?
        failed.subscribe(
            AnySubscriber(
                receiveSubscription: { description = "\($0)" },
                receiveCompletion: { completion = $0 }))
        #expect(description == "Empty")
        #expect(completion == .failure(CreateTestError(code: 1)))
    }

    @Test func honoursDemand() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(output: Array(1...9), completion: .finished).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(5))
        #expect(subscriber.values == Array(1...8))
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == Array(1...9))
        #expect(subscriber.completion == .finished)
    }

    @Test func demandReturnedFromReceiveCounts() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1)) { $0 < 4 ? .max(1) : .none }
        Sut(output: Array(1...9), completion: .finished).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func reentrantRequestsDoNotRecurseAndKeepOrder() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1))
        var depth = 0
        var deepest = 0
        subscriber.onReceiveValue { _ in
            depth += 1
            deepest = max(deepest, depth)
            subscriber.request(.max(1))
            depth -= 1
        }
        Sut(output: Array(1...20), completion: .finished).subscribe(subscriber)
        #expect(deepest == 1)
        #expect(subscriber.values == Array(1...20))
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelStopsPlayback() {
        let subscriber = TestSubscriber<Int, CreateTestError>()
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        Sut(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func requestAfterCancelDoesNothing() throws {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1))
        Sut(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func descriptionPrintsTheOutputUntilPlaybackEnds() throws {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(output: [1, 2], completion: .finished).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "[1, 2]")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "[1, 2]")
        let labels = Mirror(reflecting: subscription).children.map(\.label)
        #expect(labels == ["sequence", "completion"])
        subscription.request(.unlimited)
        #expect(String(describing: subscription) == "Cancelled Events")

        let cancelled = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(output: [1], completion: .finished).subscribe(cancelled)
        let other = try #require(cancelled.subscription)
        other.cancel()
        #expect(String(describing: other) == "Cancelled Events")
    }

    @Test func everySubscriberGetsTheWholeRecording() {
        let record = Sut(output: [7, 8], completion: .finished)
        let first = TestSubscriber<Int, CreateTestError>()
        let second = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1))
        record.subscribe(first)
        record.subscribe(second)
        #expect(first.values == [7, 8])
        #expect(second.values == [7])
    }

    @Test func releasesTheSubscriberOnCancelAndCompletion() {
        weak var cancelledSubscriber: TestSubscriber<Int, CreateTestError>?
        weak var finishedSubscriber: TestSubscriber<Int, CreateTestError>?
        var subscriptions: [any Subscription] = []
        do {
            let cancelled = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1))
            let finished = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1))
            Sut(output: [1, 2], completion: .finished).subscribe(cancelled)
            Sut(output: [1, 2], completion: .finished).subscribe(finished)
            subscriptions = [cancelled.subscription, finished.subscription].compactMap { $0 }
            cancelledSubscriber = cancelled
            finishedSubscriber = finished
        }
        #expect(cancelledSubscriber != nil)
        #expect(finishedSubscriber != nil)
        subscriptions[0].cancel()
        subscriptions[1].request(.max(1))
        #expect(cancelledSubscriber == nil)
        #expect(finishedSubscriber == nil)
    }

    @Test func concurrentRequestsPlayEveryValueOnceInOrder() {
        let count = 1_000
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(output: Array(0..<count), completion: .failure(CreateTestError(code: 5))).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            subscriber.request(.max(1))
        }
        #expect(subscriber.values == Array(0..<count))
        #expect(subscriber.completion == .failure(CreateTestError(code: 5)))
    }

    @Test func recordingStartsOpenAndAcceptsInput() {
        var recording = Sut.Recording()
        #expect(recording.output == [])
        #expect(recording.completion == .finished)
        recording.receive(1)
        recording.receive(1)
        recording.receive(completion: .failure(CreateTestError(code: 2)))
        #expect(recording.output == [1, 1])
        #expect(recording.completion == .failure(CreateTestError(code: 2)))
    }

    @Test func recordCopiesOfAnOpenRecordingStayOpen() {
        // A record made with an empty closure keeps an open recording; a copy of it still accepts input.
        let record = Sut { _ in }
        var copy = record.recording
        copy.receive(3)
        copy.receive(completion: .finished)
        #expect(copy.output == [3])
        #expect(record.recording.output == [])
    }

    @Test func valueAfterCompletionIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
        expectTrapMessage(trap1, contains: "A Record.Recording cannot receive a value after its completion")
    }

    @Test func secondCompletionIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(completion: .finished)
        }
        expectTrapMessage(trap2, contains: "A Record.Recording cannot receive more than one completion")
    }

    @Test func recordingMadeFromOutputIsComplete() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording(output: [1])
            recording.receive(2)
        }
        expectTrapMessage(trap3, contains: "A Record.Recording cannot receive a value after its completion")
    }

    @Test func decodedRecordingIsComplete() async {
        let trap4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let json = Data(#"{"output":[1],"completion":{"success":true}}"#.utf8)
            // A decoding failure must not pass for the crash under test: exit cleanly instead.
            guard var recording = try? JSONDecoder().decode(Record<Int, CreateTestError>.Recording.self, from: json)
            else { exit(0) }
            recording.receive(2)
        }
        expectTrapMessage(trap4, contains: "A Record.Recording cannot receive a value after its completion")
    }

    @Test func aRequestForNoValuesIsIgnored() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Record<Int, Never>(output: [4, 5], completion: .finished).subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription, .value(4)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .completion(.finished)])
    }

    @Test func roundTripsThroughJSON() throws {
        let record = Sut(output: [3, 2, 1], completion: .failure(CreateTestError(code: 6)))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Sut.self, from: data)
        #expect(decoded.recording.output == [3, 2, 1])
        #expect(decoded.recording.completion == .failure(CreateTestError(code: 6)))
        let subscriber = TestSubscriber<Int, CreateTestError>()
        decoded.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(3), .value(2), .value(1), .completion(.failure(CreateTestError(code: 6))),
            ])
    }

    @Test func encodesTheCombineLayout() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let finished = try encoder.encode(Sut(output: [1, 2], completion: .finished))
        #expect(
            String(decoding: finished, as: UTF8.self)
                == #"{"recording":{"completion":{"success":true},"output":[1,2]}}"#)
        let failed = try encoder.encode(Sut.Recording(output: [], completion: .failure(CreateTestError(code: 1))))
        #expect(
            String(decoding: failed, as: UTF8.self)
                == #"{"completion":{"error":{"code":1},"success":false},"output":[]}"#)
        var viaInto = Data()
        let recording = Sut.Recording(output: [5])
        let plain = try encoder.encode(recording)
        struct Into: Encodable {
            let recording: Record<Int, CreateTestError>.Recording
            func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
        }
        viaInto = try encoder.encode(Into(recording: recording))
        #expect(viaInto == plain)
    }

    @Test func decodingRequiresBothKeys() {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) {
            try decoder.decode(Sut.Recording.self, from: Data(#"{"output":[1]}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Sut.Recording.self, from: Data(#"{"completion":{"success":true}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Sut.self, from: Data("{}".utf8))
        }
    }
}
