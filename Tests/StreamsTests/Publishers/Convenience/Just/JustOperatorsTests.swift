import Streams
import StreamsTesting
import Synchronization
import Testing

/// The error-conversion closure for a publisher that cannot fail: it can never be called.
private func absurd(_ never: Never) -> CreateTestError {}

@Suite struct JustOperatorsTests {
    @Test func overloadsAreChosenOverTheGenericOperators() {
        let mapped = Just(1).map { $0 + 1 }
        #expect(type(of: mapped) == Just<Int>.self)
        let filtered = Just(1).filter { $0 > 0 }
        #expect(type(of: filtered) == Optional<Int>.Publisher.self)
        let reduced = Just(1).reduce(0, +)
        #expect(type(of: reduced) == Result<Int, Never>.Publisher.self)
        let deduplicated = Just(1).removeDuplicates()
        #expect(type(of: deduplicated) == Just<Int>.self)
    }

    @Test func mapPublishesTheTransformedValue() {
        let subscriber = TestSubscriber<String, Never>()
        Just(21).map { "\($0 * 2)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("42"), .completion(.finished)])
    }

    @Test func tryMapSucceedsOrFails() throws {
        #expect(try Just(2).tryMap { $0 * 3 }.result.get() == 6)
        let failed = Just(2).tryMap { _ -> Int in throw CreateTestError(code: 1) }
        #expect(throws: CreateTestError(code: 1)) { try failed.result.get() }
    }

    @Test func filterAndFriendsKeepOrDropTheValue() {
        #expect(Just(4).filter { $0.isMultiple(of: 2) } == Optional(4).publisher)
        #expect(Just(5).filter { $0.isMultiple(of: 2) } == Optional<Int>.Publisher(nil))
        #expect(Just(5).compactMap { $0 > 3 ? "\($0)" : nil } == Optional("5").publisher)
        #expect(Just(1).compactMap { $0 > 3 ? "\($0)" : nil } == Optional<String>.Publisher(nil))
        #expect(Just(3).drop { $0 < 5 } == Optional<Int>.Publisher(nil))
        #expect(Just(7).drop { $0 < 5 } == Optional(7).publisher)
        #expect(Just(3).first { $0 == 3 } == Optional(3).publisher)
        #expect(Just(3).first { $0 == 4 } == Optional<Int>.Publisher(nil))
        #expect(Just(3).last { $0 == 3 } == Optional(3).publisher)
        #expect(Just(3).last { $0 == 4 } == Optional<Int>.Publisher(nil))
        #expect(Just(3).prefix { $0 < 5 } == Optional(3).publisher)
        #expect(Just(7).prefix { $0 < 5 } == Optional<Int>.Publisher(nil))
    }

    @Test func countingAndPositionalOperators() {
        #expect(Just("a").count() == Just(1))
        #expect(Just("a").collect() == Just(["a"]))
        #expect(Just(9).dropFirst() == Optional<Int>.Publisher(nil))
        #expect(Just(9).dropFirst(0) == Optional(9).publisher)
        #expect(Just(9).dropFirst(5) == Optional<Int>.Publisher(nil))
        #expect(Just(9).prefix(0) == Optional<Int>.Publisher(nil))
        #expect(Just(9).prefix(1) == Optional(9).publisher)
        #expect(Just(9).prefix(100) == Optional(9).publisher)
        #expect(Just(9).output(at: 0) == Optional(9).publisher)
        #expect(Just(9).output(at: 1) == Optional<Int>.Publisher(nil))
        #expect(Just(9).output(in: 0..<3) == Optional(9).publisher)
        #expect(Just(9).output(in: 0...0) == Optional(9).publisher)
        #expect(Just(9).output(in: 1..<3) == Optional<Int>.Publisher(nil))
        #expect(Just(9).output(in: -2..<3) == Optional<Int>.Publisher(nil))
        #expect(Just(9).output(in: ..<5) == Optional(9).publisher)
        // Combine publishes the value for an empty range starting at zero.
        #expect(Just(9).output(in: 0..<0) == Optional(9).publisher)
        #expect(Just(9).first() == Just(9))
        #expect(Just(9).last() == Just(9))
    }

    @Test func comparisonsNeverCallTheClosure() {
        var calls = 0
        let ordering: (Int, Int) -> Bool = {
            calls += 1; return $0 < $1
        }
        #expect(Just(3).min() == Just(3))
        #expect(Just(3).max() == Just(3))
        #expect(Just(3).min(by: ordering) == Just(3))
        #expect(Just(3).max(by: ordering) == Just(3))
        #expect(Just(3).removeDuplicates(by: ==) == Just(3))
        #expect(Just(3).removeDuplicates() == Just(3))
        #expect(calls == 0)
    }

    @Test func matchingOperators() {
        #expect(Just(3).contains(3) == Just(true))
        #expect(Just(3).contains(4) == Just(false))
        #expect(Just(3).contains { $0 > 2 } == Just(true))
        #expect(Just(3).allSatisfy { $0 > 3 } == Just(false))
        #expect(Just(3).allSatisfy { $0 > 2 } == Just(true))
    }

    @Test func throwingMatchersReportTheError() throws {
        #expect(try Just(3).tryContains { $0 > 2 }.result.get())
        #expect(try !Just(3).tryAllSatisfy { $0 > 3 }.result.get())
        #expect(throws: CreateTestError(code: 2)) {
            try Just(3).tryAllSatisfy { _ in throw CreateTestError(code: 2) }.result.get()
        }
        #expect(throws: CreateTestError(code: 3)) {
            try Just(3).tryContains { _ in throw CreateTestError(code: 3) }.result.get()
        }
    }

    @Test func tryRemoveDuplicatesCallsThePredicateOnceWithTheValueTwice() throws {
        var arguments: [[Int]] = []
        #expect(
            try Just(8).tryRemoveDuplicates {
                arguments.append([$0, $1]); return true
            }.result.get() == 8)
        #expect(arguments == [[8, 8]])
        #expect(throws: CreateTestError(code: 4)) {
            try Just(8).tryRemoveDuplicates { _, _ in throw CreateTestError(code: 4) }.result.get()
        }
    }

    @Test func reduceAndScanCombineWithTheInitialResult() throws {
        #expect(Just(4).reduce(10, +).result == .success(14))
        #expect(Just(4).scan(10, *).result == .success(40))
        #expect(try Just(4).tryReduce(1, -).result.get() == -3)
        #expect(try Just(4).tryScan("x") { "\($0)\($1)" }.result.get() == "x4")
        #expect(throws: CreateTestError(code: 5)) {
            try Just(4).tryReduce(0) { _, _ in throw CreateTestError(code: 5) }.result.get()
        }
        #expect(throws: CreateTestError(code: 6)) {
            try Just(4).tryScan(0) { _, _ in throw CreateTestError(code: 6) }.result.get()
        }
    }

    @Test func errorHandlingOperatorsKeepTheValue() throws {
        #expect(Just(1).replaceError(with: 2) == Just(1))
        #expect(Just(1).replaceEmpty(with: 2) == Just(1))
        #expect(Just(1).retry(3) == Just(1))
        let typed: Result<Int, CreateTestError>.Publisher = Just(1).setFailureType(to: CreateTestError.self)
        #expect(typed.result == .success(1))
        let mapped: Result<Int, CreateTestError>.Publisher = Just(1).mapError(absurd)
        #expect(mapped.result == .success(1))
    }

    @Test func ignoreOutputFinishesWithoutTheValue() {
        let subscriber = TestSubscriber<Int, Never>()
        let empty = Just(1).ignoreOutput()
        #expect(empty.completeImmediately)
        empty.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func prependAndAppendMakeSequences() {
        #expect(Just(3).prepend(1, 2) == [1, 2, 3].publisher)
        #expect(Just(3).prepend(1...2) == [1, 2, 3].publisher)
        #expect(Just(1).append(2, 3) == [1, 2, 3].publisher)
        #expect(Just(1).append([2, 3]) == [1, 2, 3].publisher)
        let subscriber = TestSubscriber<Int, Never>()
        Just(2).prepend(1).append(3).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func negativeDropFirstIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).dropFirst(-1)
        }
        expectTrapMessage(trap1, contains: "dropFirst(_:) requires a count of zero or more, got -1")
    }

    @Test func negativePrefixIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).prefix(-1)
        }
        expectTrapMessage(trap2, contains: "prefix(_:) requires a maxLength of zero or more, got -1")
    }

    @Test func prependAndAppendNeverAskACollectionForItsCount() {
        let elements = CountingCollection(elements: [1, 2])
        #expect(Just(3).prepend(elements) == [1, 2, 3].publisher)
        #expect(Just(0).append(elements) == [0, 1, 2].publisher)
        #expect(elements.countCalls.value.load(ordering: .relaxed) == 0)
    }

    @Test func negativeOutputIndexIsAProgrammerError() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).output(at: -1)
        }
        expectTrapMessage(trap3, contains: "output(at:) requires an index of zero or more, got -1")
    }
}

/// A collection that counts how often it is asked for its `count`, which, for some collections,
/// walks every element; its `underestimatedCount` is cheap and not counted.
private struct CountingCollection: Collection {
    let elements: [Int]
    let countCalls = Counter()

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    var startIndex: Int { elements.startIndex }
    var endIndex: Int { elements.endIndex }
    var count: Int {
        countCalls.value.add(1, ordering: .relaxed)
        return elements.count
    }
    var underestimatedCount: Int { elements.count }

    func index(after index: Int) -> Int { index + 1 }

    subscript(position: Int) -> Int { elements[position] }
}
