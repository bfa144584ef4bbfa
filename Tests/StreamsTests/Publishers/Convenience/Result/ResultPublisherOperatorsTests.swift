import Streams
import StreamsTesting
import Testing

@Suite struct ResultPublisherOperatorsTests {
    typealias Sut = Result<Int, CreateTestError>.Publisher
    private let failed = Sut(CreateTestError(code: 1))

    @Test func overloadsAreChosenOverTheGenericOperators() {
        #expect(type(of: Sut(1).map { "\($0)" }) == Result<String, CreateTestError>.Publisher.self)
        #expect(type(of: Sut(1).count()) == Result<Int, CreateTestError>.Publisher.self)
        #expect(type(of: Sut(1).replaceError(with: 0)) == Result<Int, Never>.Publisher.self)
    }

    @Test func mappingOperators() {
        #expect(Sut(2).map { $0 + 1 } == Sut(3))
        #expect(failed.map { $0 + 1 } == failed)
        #expect(Sut(2).mapError { CreateTestError(code: $0.code + 10) } == Sut(2))
        #expect(failed.mapError { CreateTestError(code: $0.code + 10) } == Sut(CreateTestError(code: 11)))
        #expect(Sut(2).reduce(10, +) == Sut(12))
        #expect(Sut(2).scan(10, *) == Sut(20))
        #expect(failed.reduce(10, +) == failed)
        #expect(failed.scan(10, +) == failed)
        #expect(Sut(2).collect() == Result<[Int], CreateTestError>.Publisher([2]))
        #expect(failed.collect() == Result<[Int], CreateTestError>.Publisher(CreateTestError(code: 1)))
        #expect(Sut(2).count() == Sut(1))
        #expect(failed.count() == failed)
    }

    @Test func matchingOperators() {
        #expect(Sut(2).contains(2) == Result<Bool, CreateTestError>.Publisher(true))
        #expect(Sut(2).contains(3) == Result<Bool, CreateTestError>.Publisher(false))
        #expect(failed.contains(2) == Result<Bool, CreateTestError>.Publisher(CreateTestError(code: 1)))
        #expect(Sut(2).contains { $0 > 1 } == Result<Bool, CreateTestError>.Publisher(true))
        #expect(Sut(2).allSatisfy { $0 > 2 } == Result<Bool, CreateTestError>.Publisher(false))
    }

    @Test func throwingOperatorsReportTheirOwnOrTheOriginalError() throws {
        #expect(try Sut(2).tryMap { $0 * 5 }.result.get() == 10)
        #expect(try Sut(2).tryReduce(1, +).result.get() == 3)
        #expect(try Sut(2).tryScan(1, -).result.get() == -1)
        #expect(try Sut(2).tryContains { $0 == 2 }.result.get())
        #expect(try !Sut(2).tryAllSatisfy { $0 == 3 }.result.get())
        let thrower: (Int) throws -> Bool = { _ in throw CreateTestError(code: 9) }
        #expect(throws: CreateTestError(code: 9)) { try Sut(2).tryAllSatisfy(thrower).result.get() }
        #expect(throws: CreateTestError(code: 9)) { try Sut(2).tryContains(where: thrower).result.get() }
        #expect(throws: CreateTestError(code: 9)) { try Sut(2).tryMap(thrower).result.get() }
        #expect(throws: CreateTestError(code: 1)) { try failed.tryMap(thrower).result.get() }
        #expect(throws: CreateTestError(code: 1)) { try failed.tryReduce(0) { _, _ in 0 }.result.get() }
        #expect(throws: CreateTestError(code: 1)) { try failed.tryScan(0) { _, _ in 0 }.result.get() }
    }

    @Test func throwingComparisonsCallTheClosureOnceWithTheValueTwice() throws {
        var arguments: [[Int]] = []
        let record: (Int, Int) throws -> Bool = {
            arguments.append([$0, $1]); return false
        }
        #expect(try Sut(6).tryMin(by: record).result.get() == 6)
        #expect(try Sut(6).tryMax(by: record).result.get() == 6)
        #expect(try Sut(6).tryRemoveDuplicates(by: record).result.get() == 6)
        #expect(arguments == [[6, 6], [6, 6], [6, 6]])
        let thrower: (Int, Int) throws -> Bool = { _, _ in throw CreateTestError(code: 4) }
        #expect(throws: CreateTestError(code: 4)) { try Sut(6).tryMin(by: thrower).result.get() }
        #expect(throws: CreateTestError(code: 4)) { try Sut(6).tryMax(by: thrower).result.get() }
        #expect(throws: CreateTestError(code: 4)) { try Sut(6).tryRemoveDuplicates(by: thrower).result.get() }
        // A failure passes through without calling the closure.
        #expect(throws: CreateTestError(code: 1)) { try failed.tryMin(by: record).result.get() }
        #expect(arguments.count == 3)
    }

    @Test func identityOperators() {
        var calls = 0
        let ordering: (Int, Int) -> Bool = {
            calls += 1; return $0 < $1
        }
        for publisher in [Sut(4), failed] {
            #expect(publisher.min() == publisher)
            #expect(publisher.max() == publisher)
            #expect(publisher.min(by: ordering) == publisher)
            #expect(publisher.max(by: ordering) == publisher)
            #expect(publisher.first() == publisher)
            #expect(publisher.last() == publisher)
            #expect(publisher.removeDuplicates() == publisher)
            #expect(publisher.removeDuplicates(by: ordering) == publisher)
            #expect(publisher.replaceEmpty(with: 0) == publisher)
            #expect(publisher.retry(2) == publisher)
        }
        #expect(calls == 0)
    }

    @Test func replaceErrorAndSetFailureType() {
        #expect(Sut(4).replaceError(with: 0) == Result<Int, Never>.Publisher(4))
        #expect(failed.replaceError(with: 0) == Result<Int, Never>.Publisher(0))
        let typed = Result<Int, Never>.Publisher(3).setFailureType(to: CreateTestError.self)
        #expect(typed == Sut(3))
    }

    @Test func ignoreOutputFinishesEvenForAFailure() {
        // Combine's specialization returns an Empty that finishes, whatever the result.
        let subscriber = TestSubscriber<Int, CreateTestError>()
        failed.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }
}
