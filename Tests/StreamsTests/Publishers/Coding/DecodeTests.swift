import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

private struct Book: Codable, Equatable {
    let title: String
    let pages: Int
}

@Suite(.timeLimit(.minutes(3))) struct DecodeTests {
    private let books = [Book(title: "Dune", pages: 412), Book(title: "Emma", pages: 474)]

    private func json(_ value: some Encodable) throws -> Data {
        try JSONEncoder().encode(value)
    }

    @Test func decodesJustDataLikeTheArticle() throws {
        let data = try json(books)
        let subscriber = TestSubscriber<[Book], any Error>()
        Just(data).decode(type: [Book].self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(subscriber.values == [books])
        guard case .finished = subscriber.completion else {
            Issue.record("expected .finished, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func failsWithTheDecodingErrorForBadData() {
        let subscriber = TestSubscriber<[Book], any Error>()
        Just(Data("not json".utf8)).decode(type: [Book].self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error is DecodingError)
    }

    @Test func failsForDataOfTheWrongShape() throws {
        let data = try json(["title": "Dune"])
        let subscriber = TestSubscriber<Book, any Error>()
        Just(data).decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        guard case .failure(DecodingError.keyNotFound(let key, _)) = subscriber.completion else {
            Issue.record("expected keyNotFound, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(key.stringValue == "pages")
    }

    @Test func decodesEachElementOfASequence() throws {
        let items = try books.map { try json($0) }
        let subscriber = TestSubscriber<Book, any Error>()
        items.publisher.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(subscriber.values == books)
    }

    @Test func decodesPropertyLists() throws {
        let data = try PropertyListEncoder().encode(books)
        let subscriber = TestSubscriber<[Book], any Error>()
        Just(data).decode(type: [Book].self, decoder: PropertyListDecoder()).subscribe(subscriber)
        #expect(subscriber.values == [books])
    }

    @Test func passesDemandThroughBothWays() throws {
        let upstream = CreateManualPublisher<Data, CreateTestError>()
        let subscriber = TestSubscriber<Book, any Error>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        #expect(upstream.subscription.events == [.request(.max(2))])
        #expect(upstream.send(try json(books[0])) == .max(3))
        subscriber.request(.max(4))
        #expect(upstream.subscription.events == [.request(.max(2)), .request(.max(4))])
        #expect(subscriber.values == [books[0]])
    }

    @Test func decodingErrorCancelsUpstreamThenFails() throws {
        let upstream = CreateManualPublisher<Data, CreateTestError>()
        let subscriber = TestSubscriber<Book, any Error>()
        var upstreamEventsAtFailure: [CreateUpstreamEvent] = []
        upstream.decode(type: Book.self, decoder: JSONDecoder()).subscribe(
            AnySubscriber(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: {
                    upstreamEventsAtFailure = upstream.subscription.events
                    subscriber.receive(completion: $0)
                }))
        #expect(upstream.send(try json(books[0])) == Subscribers.Demand.none)
        #expect(upstream.send(Data("{".utf8)) == Subscribers.Demand.none)
        #expect(upstreamEventsAtFailure == [.request(.unlimited), .cancel])
        // Nothing gets through once it has failed.
        #expect(upstream.send(try json(books[1])) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [books[0]])
        #expect(subscriber.events.count == 3)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is DecodingError)
    }

    @Test func upstreamFailurePassesThroughAsAnyError() {
        let upstream = CreateManualPublisher<Data, CreateTestError>()
        let subscriber = TestSubscriber<Book, any Error>()
        upstream.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        upstream.send(completion: .failure(CreateTestError(code: 7)))
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 2)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? CreateTestError == CreateTestError(code: 7))
        #expect(upstream.subscription.events == [.request(.unlimited)])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() throws {
        let upstream = CreateManualPublisher<Data, CreateTestError>()
        let subscriber = TestSubscriber<Book, any Error>()
        upstream.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(1))
        #expect(upstream.send(try json(books[0])) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 1)
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    @Test func cancelFromInsideReceive() throws {
        let subject = PassthroughSubject<Data, Never>()
        let subscriber = TestSubscriber<Book, any Error>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        subject.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        subject.send(try json(books[0]))
        subject.send(try json(books[1]))
        subject.send(completion: .finished)
        #expect(subscriber.values == [books[0]])
        #expect(subscriber.completion == nil)
    }

    @Test func secondSubscriptionIsCancelled() {
        let upstream = CreateManualPublisher<Data, CreateTestError>()
        let subscriber = TestSubscriber<Book, any Error>(initialDemand: .none)
        upstream.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        let extra = CreateManualSubscription()
        upstream.subscriber?.receive(subscription: extra)
        #expect(extra.events == [.cancel])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func subscriptionIsNamedDecode() throws {
        let subscriber = TestSubscriber<Book, any Error>(initialDemand: .none)
        PassthroughSubject<Data, Never>().decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Decode")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Decode")
        subscriber.cancel()
    }

    @Test func releasesUpstreamAndItselfAfterCancel() {
        weak var weakSubject: PassthroughSubject<Data, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Data, Never>()
            let subscriber = TestSubscriber<Book, any Error>()
            subject.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
            weakSubject = subject
            weakInner = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesEverythingAfterCompletion() throws {
        weak var weakSubject: PassthroughSubject<Data, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Data, Never>()
            let subscriber = TestSubscriber<Book, any Error>()
            subject.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
            weakSubject = subject
            weakInner = subscriber.subscription as AnyObject?
            subject.send(try json(books[0]))
            subject.send(completion: .finished)
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func concurrentSendsAreAllDecoded() throws {
        let subject = PassthroughSubject<Data, Never>()
        let subscriber = TestSubscriber<Book, any Error>()
        subject.decode(type: Book.self, decoder: JSONDecoder()).subscribe(subscriber)
        let payloads = try (0..<200).map { try json(Book(title: "b\($0)", pages: $0)) }
        DispatchQueue.concurrentPerform(iterations: payloads.count) { index in
            subject.send(payloads[index])
        }
        let values = subscriber.values
        #expect(values.count == payloads.count)
        #expect(values.map(\.pages).reduce(0, +) == (0..<200).reduce(0, +))
        #expect(Set(values.map(\.pages)) == Set(0..<200))
    }

    @Test func exposesUpstream() {
        let decode = Just(Data()).decode(type: Book.self, decoder: JSONDecoder())
        #expect(decode.upstream == Just(Data()))
    }
}
