import Streams
import StreamsTesting
import Testing

@Suite struct OptionalPublisherOperatorsTests {
    typealias Sut = Optional<Int>.Publisher
    private let none = Sut(nil)

    @Test func overloadsAreChosenOverTheGenericOperators() {
        #expect(type(of: Optional(1).publisher.map { "\($0)" }) == Optional<String>.Publisher.self)
        #expect(type(of: Optional(1).publisher.filter { $0 > 0 }) == Sut.self)
        #expect(type(of: Optional(1).publisher.replaceEmpty(with: 0)) == Just<Int>.self)
    }

    @Test func transformsTheValueOrStaysEmpty() {
        #expect(Sut(2).map { $0 * 10 } == Sut(20))
        #expect(none.map { $0 * 10 } == Sut(nil))
        #expect(Sut(2).compactMap { $0 > 1 ? "\($0)" : nil } == Optional("2").publisher)
        #expect(Sut(1).compactMap { $0 > 1 ? "\($0)" : nil } == Optional<String>.Publisher(nil))
        #expect(Sut(2).filter { $0 > 1 } == Sut(2))
        #expect(Sut(1).filter { $0 > 1 } == none)
        #expect(none.filter { _ in true } == none)
        #expect(Sut(3).drop { $0 < 5 } == none)
        #expect(Sut(7).drop { $0 < 5 } == Sut(7))
        #expect(Sut(3).first { $0 == 3 } == Sut(3))
        #expect(Sut(3).last { $0 == 4 } == none)
        #expect(Sut(3).prefix { $0 < 5 } == Sut(3))
        #expect(Sut(9).prefix { $0 < 5 } == none)
    }

    @Test func closuresRunOnlyWhenThereIsAValue() {
        var calls = 0
        let predicate: (Int) -> Bool = { _ in
            calls += 1; return true
        }
        _ = none.filter(predicate)
        _ = none.allSatisfy(predicate)
        _ = none.contains(where: predicate)
        _ = none.first(where: predicate)
        _ = none.map { _ in calls += 1 }
        _ = none.reduce(0) { _, _ in
            calls += 1; return 0
        }
        #expect(calls == 0)
        _ = Sut(1).filter(predicate)
        _ = Sut(1).allSatisfy(predicate)
        #expect(calls == 2)
    }

    @Test func countingFollowsCombine() {
        #expect(Sut(5).count() == Optional(1).publisher)
        // Combine's Optional.Publisher counts nothing, rather than zero, when there is no value.
        #expect(none.count() == Optional<Int>.Publisher(nil))
        #expect(Sut(5).collect() == Optional([5]).publisher)
        #expect(none.collect() == Optional([Int]()).publisher)
    }

    @Test func matchingOperators() {
        #expect(Sut(5).contains(5) == Optional(true).publisher)
        #expect(Sut(5).contains(6) == Optional(false).publisher)
        #expect(none.contains(5) == Optional<Bool>.Publisher(nil))
        #expect(Sut(5).contains { $0 > 4 } == Optional(true).publisher)
        #expect(Sut(5).allSatisfy { $0 > 5 } == Optional(false).publisher)
    }

    @Test func positionalOperators() {
        #expect(Sut(5).dropFirst() == none)
        #expect(Sut(5).dropFirst(0) == Sut(5))
        #expect(Sut(5).prefix(0) == none)
        #expect(Sut(5).prefix(2) == Sut(5))
        #expect(Sut(5).output(at: 0) == Sut(5))
        #expect(Sut(5).output(at: 1) == none)
        #expect(none.output(at: 0) == none)
        #expect(Sut(5).output(in: 0..<2) == Sut(5))
        #expect(Sut(5).output(in: 0...0) == Sut(5))
        #expect(Sut(5).output(in: 0..<0) == none)
        #expect(Sut(5).output(in: 1..<3) == none)
        #expect(Sut(5).output(in: ..<1) == Sut(5))
        #expect(Sut(5).output(in: 0..<(Int.max - 2)) == Sut(5))
    }

    @Test func identityOperators() {
        var calls = 0
        let ordering: (Int, Int) -> Bool = {
            calls += 1; return $0 < $1
        }
        for publisher in [Sut(4), none] {
            #expect(publisher.min() == publisher)
            #expect(publisher.max() == publisher)
            #expect(publisher.min(by: ordering) == publisher)
            #expect(publisher.max(by: ordering) == publisher)
            #expect(publisher.first() == publisher)
            #expect(publisher.last() == publisher)
            #expect(publisher.removeDuplicates() == publisher)
            #expect(publisher.removeDuplicates(by: ordering) == publisher)
            #expect(publisher.replaceError(with: 0) == publisher)
            #expect(publisher.retry(2) == publisher)
        }
        #expect(calls == 0)
    }

    @Test func reduceScanAndReplaceEmpty() {
        #expect(Sut(4).reduce(1, +) == Sut(5))
        #expect(Sut(4).scan(2, *) == Sut(8))
        #expect(none.reduce(1, +) == none)
        #expect(none.scan(1, +) == none)
        #expect(Sut(4).replaceEmpty(with: 9) == Just(4))
        #expect(none.replaceEmpty(with: 9) == Just(9))
    }

    @Test func ignoreOutputFinishesWithoutTheValue() {
        let subscriber = TestSubscriber<Int, Never>()
        Sut(1).ignoreOutput().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func negativeDropFirstIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.dropFirst(-1)
        }
        expectTrapMessage(trap1, contains: "dropFirst(_:) requires a count of zero or more, got -1")
    }

    @Test func negativePrefixIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.prefix(-1)
        }
        expectTrapMessage(trap2, contains: "prefix(_:) requires a maxLength of zero or more, got -1")
    }

    @Test func negativeOutputIndexIsAProgrammerError() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(at: -1)
        }
        expectTrapMessage(trap3, contains: "output(at:) requires an index of zero or more, got -1")
    }

    @Test func negativeOutputRangeIsAProgrammerError() async {
        let trap4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: -1...4)
        }
        expectTrapMessage(trap4, contains: "output(in:) requires a lower bound of zero or more")
    }

    @Test func outputRangeReachingIntMaxIsAProgrammerError() async {
        let trap5 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: 0..<(Int.max - 1))
        }
        expectTrapMessage(trap5, contains: "output(in:) requires an upper bound below Int.max - 1")
    }
}
