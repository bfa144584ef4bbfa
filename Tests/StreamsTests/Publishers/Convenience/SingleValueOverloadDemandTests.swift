import Streams
import StreamsTesting
import Testing

/// What the operator overloads on `Just`, `Optional.Publisher` and `Result.Publisher` return is a
/// publisher like any other: it delivers only what was requested, and nothing once cancelled.
@Suite struct SingleValueOverloadDemandTests {
    /// Publishers made by the overloads, each with the one value it publishes (nil: none).
    static func cases() -> [(name: String, publisher: AnyPublisher<Int, Never>, value: Int?)] {
        [
            ("Just.map", Just(2).map { $0 * 10 }.eraseToAnyPublisher(), 20),
            ("Just.scan", Just(2).scan(1, +).eraseToAnyPublisher(), 3),
            ("Just.count", Just(2).count().eraseToAnyPublisher(), 1),
            ("Just.min", Just(4).min().eraseToAnyPublisher(), 4),
            ("Just.removeDuplicates", Just(5).removeDuplicates().eraseToAnyPublisher(), 5),
            ("Just.replaceError", Just(6).replaceError(with: 0).eraseToAnyPublisher(), 6),
            ("Just.retry", Just(7).retry(3).eraseToAnyPublisher(), 7),
            ("Optional.map", Optional(2).publisher.map { $0 + 1 }.eraseToAnyPublisher(), 3),
            ("Optional.filter (kept)", Optional(2).publisher.filter { $0 > 1 }.eraseToAnyPublisher(), 2),
            ("Optional.filter (dropped)", Optional(1).publisher.filter { $0 > 1 }.eraseToAnyPublisher(), nil),
            ("Optional.count", Optional(9).publisher.count().eraseToAnyPublisher(), 1),
            ("Optional.replaceEmpty", Optional<Int>.none.publisher.replaceEmpty(with: 8).eraseToAnyPublisher(), 8),
            ("Result.map", Result<Int, Never>.success(4).publisher.map { $0 * 2 }.eraseToAnyPublisher(), 8),
            ("Result.count", Result<Int, Never>.success(4).publisher.count().eraseToAnyPublisher(), 1),
            ("Result.max", Result<Int, Never>.success(4).publisher.max().eraseToAnyPublisher(), 4),
        ]
    }

    @Test(arguments: cases().indices) func deliversOnlyOnceRequested(index: Int) {
        let (name, publisher, value) = Self.cases()[index]
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        if let value {
            #expect(subscriber.events == [.subscription], "\(name)")
            subscriber.request(.max(1))
            #expect(subscriber.events == [.subscription, .value(value), .completion(.finished)], "\(name)")
        } else {
            // Nothing to deliver: the stream finishes without waiting for demand.
            #expect(subscriber.events == [.subscription, .completion(.finished)], "\(name)")
        }
        subscriber.request(.max(1))
        #expect(subscriber.values.count == (value == nil ? 0 : 1), "\(name)")
    }

    @Test(arguments: cases().indices) func deliversNothingOnceCancelled(index: Int) {
        let (name, publisher, value) = Self.cases()[index]
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        guard value != nil else { return }
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription], "\(name)")
    }
}
