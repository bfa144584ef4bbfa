import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

private struct Point: Codable, Equatable {
    let x: Double
    let y: Double
}

@Suite(.timeLimit(.minutes(3))) struct EncodeTests {
    @Test func encodesToJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let subscriber = TestSubscriber<Data, any Error>()
        Just(Point(x: 1, y: 2)).encode(encoder: encoder).subscribe(subscriber)
        #expect(subscriber.values.map { String(decoding: $0, as: UTF8.self) } == [#"{"x":1,"y":2}"#])
        guard case .finished = subscriber.completion else {
            Issue.record("expected .finished")
            return
        }
    }

    @Test func encodeThenDecodeRoundTrips() {
        let points = [Point(x: 0, y: 1), Point(x: -3.5, y: 8)]
        let subscriber = TestSubscriber<Point, any Error>()
        points.publisher
            .encode(encoder: PropertyListEncoder())
            .decode(type: Point.self, decoder: PropertyListDecoder())
            .subscribe(subscriber)
        #expect(subscriber.values == points)
    }

    @Test func encodingErrorCancelsUpstreamThenFails() {
        let upstream = CreateManualPublisher<Point, CreateTestError>()
        let subscriber = TestSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        #expect(upstream.send(Point(x: 1, y: 1)) == Subscribers.Demand.none)
        // JSON cannot represent infinity without a non-conforming float strategy.
        #expect(upstream.send(Point(x: .infinity, y: 0)) == Subscribers.Demand.none)
        #expect(upstream.send(Point(x: 2, y: 2)) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(subscriber.values.count == 1)
        #expect(subscriber.events.count == 3)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is EncodingError)
    }

    @Test func upstreamFailurePassesThroughAsAnyError() {
        let subscriber = TestSubscriber<Data, any Error>()
        Fail<Point, CreateTestError>(error: CreateTestError(code: 3)).encode(encoder: JSONEncoder()).subscribe(
            subscriber)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? CreateTestError == CreateTestError(code: 3))
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .max(1))
        (1...5).map { Point(x: Double($0), y: 0) }.publisher.encode(encoder: JSONEncoder()).subscribe(subscriber)
        #expect(subscriber.values.count == 1)
        subscriber.request(.max(2))
        #expect(subscriber.values.count == 3)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values.count == 5)
        #expect(subscriber.completion != nil)
    }

    @Test func cancelReachesUpstream() throws {
        let upstream = CreateManualPublisher<Point, CreateTestError>()
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .max(3))
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.send(Point(x: 0, y: 0)) == Subscribers.Demand.none)
        #expect(subscriber.events.count == 1)
        #expect(upstream.subscription.events == [.request(.max(3)), .cancel])
    }

    @Test func subscriptionIsNamedEncode() throws {
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .none)
        PassthroughSubject<Point, Never>().encode(encoder: JSONEncoder()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Encode")
        subscriber.cancel()
    }

    // MARK: Events before the subscription, as in Combine

    @Test func aValueBeforeTheSubscriptionIsEncodedAndDelivered() {
        let upstream = EarlyEventUpstream<Point, Never>()
        var received: [String] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        upstream.encode(encoder: encoder).subscribe(
            AnySubscriber<Data, any Error>(
                receiveSubscription: { _ in },
                receiveValue: {
                    received.append(String(decoding: $0, as: UTF8.self)); return .max(42)
                },
                receiveCompletion: { _ in received.append("completion") }))
        #expect(upstream.send(Point(x: 1, y: 0)) == .max(42))
        #expect(received == [#"{"x":1,"y":0}"#])
    }

    @Test func aDecodingErrorBeforeTheSubscriptionFailsTheStream() {
        let upstream = EarlyEventUpstream<Data, Never>()
        var received: [String] = []
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(
            AnySubscriber<Point, any Error>(
                receiveSubscription: { _ in received.append("subscription") },
                receiveValue: { _ in
                    received.append("value"); return .none
                },
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { received.append("\(type(of: error))") }
                }))
        #expect(upstream.send(Data("not json".utf8)) == .none)
        #expect(received == ["DecodingError"])
        // The stream has ended: a subscription that arrives now is cancelled, and later values dropped.
        let late = CreateManualSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.cancel])
        #expect(upstream.send(Data(#"{"x":1,"y":2}"#.utf8)) == .none)
        #expect(received == ["DecodingError"])
    }

    @Test func aCancelBeforeTheSubscriptionLetsALaterSubscriptionThrough() throws {
        let upstream = EarlyEventUpstream<Point, Never>()
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .none)
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        let inner = try #require(upstream.innerSubscription)
        inner.cancel()
        let subscription = CreateManualSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.events == [])
        #expect(subscriber.events.count == 1)
        #expect(subscriber.subscription != nil)
    }

    @Test func theMirrorShowsTheDownstreamWhetherFinishedAndTheUpstreamSubscription() throws {
        let upstream = CreateManualPublisher<Point, CreateTestError>()
        let subscriber = TestSubscriber<Data, any Error>(initialDemand: .none)
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func children() -> [String] {
            Mirror(reflecting: subscription).children.map { "\($0.label ?? "")" }
        }
        #expect(children() == ["downstream", "finished", "upstreamSubscription"])
        let finished = { Mirror(reflecting: subscription).children.first { $0.label == "finished" }?.value as? Bool }
        #expect(finished() == false)
        upstream.send(completion: .finished)
        #expect(finished() == true)
    }

    @Test func releasesUpstreamAfterCancel() {
        weak var weakSubject: PassthroughSubject<Point, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Point, Never>()
            let subscriber = TestSubscriber<Data, any Error>()
            subject.encode(encoder: JSONEncoder()).subscribe(subscriber)
            weakSubject = subject
            weakInner = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func concurrentSendsAreAllEncoded() {
        let subject = PassthroughSubject<Point, Never>()
        let subscriber = TestSubscriber<Point, any Error>()
        subject.encode(encoder: JSONEncoder()).decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            subject.send(Point(x: Double(index), y: 1))
        }
        let values = subscriber.values
        #expect(values.count == 200)
        #expect(values.map(\.x).reduce(0, +) == Double((0..<200).reduce(0, +)))
    }
}
