import Streams
import StreamsTesting
import Testing

@Suite struct SequenceOperatorsTests {
    @Test func overloadsAreChosenOverTheGenericOperators() {
        #expect(type(of: [1, 2].publisher.map { "\($0)" }) == Publishers.Sequence<[String], Never>.self)
        #expect(type(of: [1, 2].publisher.filter { $0 > 1 }) == Publishers.Sequence<[Int], Never>.self)
        #expect(type(of: [1, 2].publisher.removeDuplicates()) == Publishers.Sequence<[Int], Never>.self)
        #expect(type(of: [1, 2].publisher.reduce(0, +)) == Result<Int, Never>.Publisher.self)
        #expect(type(of: [1, 2].publisher.count()) == Just<Int>.self)
        #expect(type(of: Set([1, 2]).publisher.count()) == Result<Int, Never>.Publisher.self)
    }

    @Test func mapFilterCompactMapAndReplaceNil() {
        #expect([1, 2, 3].publisher.map { $0 * 2 } == [2, 4, 6].publisher)
        #expect((1...6).publisher.filter { $0.isMultiple(of: 3) } == [3, 6].publisher)
        #expect(["1", "x", "3"].publisher.compactMap { Int($0) } == [1, 3].publisher)
        #expect([1, nil, 3].publisher.replaceNil(with: 0) == [1, 0, 3].publisher)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.map { $0 * 10 }.subscribe(subscriber)
        #expect(subscriber.values == [10])
        #expect(subscriber.subscription.map { String(describing: $0) } == "[10, 20, 30]")
        subscriber.cancel()
    }

    @Test func removeDuplicatesDropsOnlyConsecutiveRepeats() {
        #expect([1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates() == [1, 2, 1, 3].publisher)
        #expect([Int]().publisher.removeDuplicates() == [Int]().publisher)
    }

    @Test func scanPublishesEachRunningResult() {
        #expect((1...4).publisher.scan(0, +) == [1, 3, 6, 10].publisher)
        #expect([Int]().publisher.scan(0, +) == [Int]().publisher)
    }

    @Test func reducingOperators() throws {
        #expect((1...4).publisher.reduce(0, +).result == .success(10))
        #expect([Int]().publisher.reduce(7, +).result == .success(7))
        #expect(try (1...4).publisher.tryReduce(1, *).result.get() == 24)
        #expect(throws: CreateTestError(code: 2)) {
            try (1...4).publisher.tryReduce(0) { _, _ in throw CreateTestError(code: 2) }.result.get()
        }
        #expect((1...3).publisher.collect().result == .success([1, 2, 3]))
        #expect([Int]().publisher.collect().result == .success([]))
        let subscriber = TestSubscriber<Int, Never>()
        (1...3).publisher.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func countVariants() {
        #expect([1, 2, 3].publisher.count() == Just(3))
        #expect([Int]().publisher.count() == Just(0))
        #expect(Set([1, 2, 3]).publisher.count().result == .success(3))
        let failing = Publishers.Sequence<[Int], CreateTestError>(sequence: [1, 2])
        #expect(failing.count().result == .success(2))
    }

    @Test func matchingOperators() throws {
        #expect([1, 2, 3].publisher.contains(2).result == .success(true))
        #expect([1, 2, 3].publisher.contains(5).result == .success(false))
        #expect([1, 2, 3].publisher.contains { $0 > 2 }.result == .success(true))
        #expect([1, 2, 3].publisher.allSatisfy { $0 > 0 }.result == .success(true))
        #expect([1, 2, 3].publisher.allSatisfy { $0 > 1 }.result == .success(false))
        #expect(try [1, 2, 3].publisher.tryContains { $0 > 2 }.result.get())
        #expect(try [Int]().publisher.tryAllSatisfy { _ in throw CreateTestError() }.result.get())
        #expect(throws: CreateTestError(code: 3)) {
            try [1].publisher.tryAllSatisfy { _ in throw CreateTestError(code: 3) }.result.get()
        }
        #expect(throws: CreateTestError(code: 4)) {
            try [1].publisher.tryContains { _ in throw CreateTestError(code: 4) }.result.get()
        }
    }

    @Test func minMaxFirstLast() {
        #expect([3, 1, 2].publisher.min() == Optional(1).publisher)
        #expect([3, 1, 2].publisher.max() == Optional(3).publisher)
        #expect([3, 1, 2].publisher.min(by: >) == Optional(3).publisher)
        #expect([3, 1, 2].publisher.max(by: >) == Optional(1).publisher)
        #expect([Int]().publisher.min() == Optional<Int>.Publisher(nil))
        #expect([3, 1, 2].publisher.first() == Optional(3).publisher)
        #expect([3, 1, 2].publisher.last() == Optional(2).publisher)
        #expect([Int]().publisher.first() == Optional<Int>.Publisher(nil))
        #expect((1..<9).publisher.first { $0.isMultiple(of: 4) } == Optional(4).publisher)
        #expect((1..<9).publisher.last { $0.isMultiple(of: 4) } == Optional(8).publisher)
        #expect((1..<9).publisher.last { $0 > 100 } == Optional<Int>.Publisher(nil))
    }

    @Test func positionalOperators() {
        #expect(Array((0..<5).publisher.dropFirst().sequence) == [1, 2, 3, 4])
        #expect(Array((0..<5).publisher.dropFirst(3).sequence) == [3, 4])
        #expect(Array((0..<5).publisher.drop { $0 < 3 }.sequence) == [3, 4])
        #expect(Array((0..<5).publisher.prefix(2).sequence) == [0, 1])
        #expect(Array((0..<5).publisher.prefix { $0 < 3 }.sequence) == [0, 1, 2])
        #expect([5, 6, 7].publisher.output(at: 1) == Optional(6).publisher)
        #expect([5, 6, 7].publisher.output(at: 3) == Optional<Int>.Publisher(nil))
        #expect([5, 6, 7].publisher.output(at: -1) == Optional<Int>.Publisher(nil))
        #expect([5, 6, 7].publisher.output(in: 1..<3) == [6, 7].publisher)
        let string = "héllo"
        let index = string.index(after: string.startIndex)
        #expect(string.publisher.output(at: index) == Optional<Character>("é").publisher)
        #expect(string.publisher.output(in: index..<string.endIndex) == Array("éllo").publisher)
    }

    @Test func setFailureTypeKeepsTheSequence() {
        let typed = [1, 2].publisher.setFailureType(to: CreateTestError.self)
        #expect(typed == Publishers.Sequence<[Int], CreateTestError>(sequence: [1, 2]))
    }

    @Test func prependAndAppend() {
        #expect([3, 4].publisher.prepend(1, 2) == [1, 2, 3, 4].publisher)
        #expect([3, 4].publisher.prepend(1...2) == [1, 2, 3, 4].publisher)
        #expect([3, 4].publisher.prepend([1, 2].publisher) == [1, 2, 3, 4].publisher)
        #expect([1, 2].publisher.append(3, 4) == [1, 2, 3, 4].publisher)
        #expect([1, 2].publisher.append(3...4) == [1, 2, 3, 4].publisher)
        #expect([1, 2].publisher.append([3, 4].publisher) == [1, 2, 3, 4].publisher)
    }

    @Test func closuresRunEagerlyOncePerElement() {
        var calls = 0
        let mapped = [1, 2, 3].publisher.map { value -> Int in
            calls += 1
            return value
        }
        #expect(calls == 3)
        let subscriber = TestSubscriber<Int, Never>()
        mapped.subscribe(subscriber)
        mapped.subscribe(TestSubscriber<Int, Never>())
        #expect(calls == 3)
        #expect(subscriber.values == [1, 2, 3])
    }
}
