import Streams
import StreamsTesting
import Testing

private struct Roll: Equatable {
    var die: Int
    var bonus: Int
    var player: String
}

/// A pair of values, since tuples aren't `Equatable` for event comparison.
private struct Pair<A: Equatable, B: Equatable>: Equatable {
    var first: A
    var second: B
}

@Suite struct MapKeyPathTests {
    private let rolls = [Roll(die: 4, bonus: 1, player: "Ann"), Roll(die: 6, bonus: 0, player: "Bo")]

    @Test func publishesTheValueOfOneKeyPath() {
        let mapped = rolls.publisher.map(\.die)
        #expect(type(of: mapped) == Publishers.MapKeyPath<Publishers.Sequence<[Roll], Never>, Int>.self)
        #expect(mapped.keyPath == \Roll.die)
        let subscriber = TestSubscriber<Int, Never>()
        mapped.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .value(6), .completion(.finished)])
    }

    @Test func publishesTheValuesOfTwoKeyPathsAsATuple() {
        let mapped = rolls.publisher.map(\.player, \.die)
        #expect(type(of: mapped) == Publishers.MapKeyPath2<Publishers.Sequence<[Roll], Never>, String, Int>.self)
        #expect(mapped.keyPath0 == \Roll.player)
        #expect(mapped.keyPath1 == \Roll.die)
        let subscriber = TestSubscriber<Pair<String, Int>, Never>()
        mapped.map { Pair(first: $0.0, second: $0.1) }.subscribe(subscriber)
        #expect(subscriber.values == [Pair(first: "Ann", second: 4), Pair(first: "Bo", second: 6)])
        #expect(subscriber.events.last == .completion(.finished))
    }

    @Test func publishesTheValuesOfThreeKeyPathsAsATuple() {
        let mapped = rolls.publisher.map(\.player, \.die, \.bonus)
        #expect(
            type(of: mapped) == Publishers.MapKeyPath3<Publishers.Sequence<[Roll], Never>, String, Int, Int>.self)
        #expect(mapped.keyPath2 == \Roll.bonus)
        var received: [String] = []
        let cancellable = mapped.sink { player, die, bonus in received.append("\(player):\(die + bonus)") }
        #expect(received == ["Ann:5", "Bo:6"])
        cancellable.cancel()
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() {
        let upstream = TransformTestPublisher<Roll, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.map(\.bonus).subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.send(Roll(die: 1, bonus: 9, player: "Cy")) == .max(2))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(1)), .cancel])
        #expect(subscriber.values == [9])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(1))
        rolls.publisher.map(\.player).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("Ann")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("Ann"), .value("Bo"), .completion(.finished)])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Roll, TransformTestError>()
        let one = TestSubscriber<Int, TransformTestError>()
        upstream.map(\.die).subscribe(one)
        upstream.send(completion: .failure(.upstream))
        #expect(one.events == [.subscription, .completion(.failure(.upstream))])
    }

    @Test func subscribersAreNamedAsInCombine() throws {
        let upstream = TransformTestPublisher<Roll, Never>()
        upstream.map(\.die).subscribe(TestSubscriber<Int, Never>())
        #expect(
            TransformReflection(of: try #require(upstream.subscriber)) == .named("ValueForKey", children: ["keyPath"]))

        let pairs = TransformTestPublisher<Roll, Never>()
        pairs.map(\.die, \.bonus).subscribe(AnySubscriber<(Int, Int), Never>())
        #expect(
            TransformReflection(of: try #require(pairs.subscriber))
                == .named("ValueForKeys", children: ["keyPath0", "keyPath1"]))

        let triples = TransformTestPublisher<Roll, Never>()
        triples.map(\.die, \.bonus, \.player).subscribe(AnySubscriber<(Int, Int, String), Never>())
        #expect(
            TransformReflection(of: try #require(triples.subscriber))
                == .named("ValueForKeys", children: ["keyPath0", "keyPath1", "keyPath2"]))
    }

    @Test func keyPathLiteralPicksTheKeyPathOverload() {
        let subject = PassthroughSubject<Roll, Never>()
        let mapped = subject.map(\.die)
        #expect(type(of: mapped) == Publishers.MapKeyPath<PassthroughSubject<Roll, Never>, Int>.self)
        #expect(mapped.upstream === subject)
    }
}
