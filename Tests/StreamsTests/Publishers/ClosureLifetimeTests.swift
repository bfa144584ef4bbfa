import Streams
import StreamsTesting
import Testing

/// A subscriber that keeps its subscription for as long as it lives, as a subscriber may: what an
/// operator lets go of while its subscription lives shows.
private final class ClosureCheckSubscriber<Input, Failure: Error>: Subscriber {
    var subscription: (any Subscription)?
    var values: [Input] = []

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {}
}

/// Every operator that holds a closure lets go of it, and of what it captures, when its subscription
/// is cancelled; `drop(while:)` lets go of its predicate as soon as it stops dropping.
@Suite struct ClosureLifetimeTests {
    /// An operator applied to a subject, with a closure that captures `token`.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (PassthroughSubject<Int, Never>, FlowToken) -> AnyPublisher<Int, Never>

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "map") { subject, token in
            subject.map { value in withExtendedLifetime(token) { value } }.eraseToAnyPublisher()
        },
        Case(name: "tryMap") { subject, token in
            subject.tryMap { value in withExtendedLifetime(token) { value } }.replaceError(with: 0)
                .eraseToAnyPublisher()
        },
        Case(name: "filter") { subject, token in
            subject.filter { _ in withExtendedLifetime(token) { true } }.eraseToAnyPublisher()
        },
        Case(name: "tryFilter") { subject, token in
            subject.tryFilter { _ in withExtendedLifetime(token) { true } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "compactMap") { subject, token in
            subject.compactMap { value in withExtendedLifetime(token) { value } }.eraseToAnyPublisher()
        },
        Case(name: "tryCompactMap") { subject, token in
            subject.tryCompactMap { value in withExtendedLifetime(token) { value } }.replaceError(with: 0)
                .eraseToAnyPublisher()
        },
        Case(name: "drop(while:)") { subject, token in
            subject.drop { _ in withExtendedLifetime(token) { true } }.eraseToAnyPublisher()
        },
        Case(name: "tryDrop(while:)") { subject, token in
            subject.tryDrop { _ in withExtendedLifetime(token) { true } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "prefix(while:)") { subject, token in
            subject.prefix { _ in withExtendedLifetime(token) { true } }.eraseToAnyPublisher()
        },
        Case(name: "tryPrefix(while:)") { subject, token in
            subject.tryPrefix { _ in withExtendedLifetime(token) { true } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "removeDuplicates(by:)") { subject, token in
            subject.removeDuplicates { _, _ in withExtendedLifetime(token) { false } }.eraseToAnyPublisher()
        },
        Case(name: "tryRemoveDuplicates(by:)") { subject, token in
            subject.tryRemoveDuplicates { _, _ in withExtendedLifetime(token) { false } }.replaceError(with: 0)
                .eraseToAnyPublisher()
        },
        Case(name: "scan") { subject, token in
            subject.scan(0) { total, value in withExtendedLifetime(token) { total + value } }.eraseToAnyPublisher()
        },
        Case(name: "tryScan") { subject, token in
            subject.tryScan(0) { total, value in withExtendedLifetime(token) { total + value } }.replaceError(with: 0)
                .eraseToAnyPublisher()
        },
        Case(name: "reduce") { subject, token in
            subject.reduce(0) { total, value in withExtendedLifetime(token) { total + value } }.eraseToAnyPublisher()
        },
        Case(name: "tryReduce") { subject, token in
            subject.tryReduce(0) { total, value in withExtendedLifetime(token) { total + value } }
                .replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "allSatisfy") { subject, token in
            subject.allSatisfy { _ in withExtendedLifetime(token) { true } }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        },
        Case(name: "tryAllSatisfy") { subject, token in
            subject.tryAllSatisfy { _ in withExtendedLifetime(token) { true } }.map { $0 ? 1 : 0 }
                .replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "contains(where:)") { subject, token in
            subject.contains { _ in withExtendedLifetime(token) { false } }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        },
        Case(name: "tryContains(where:)") { subject, token in
            subject.tryContains { _ in withExtendedLifetime(token) { false } }.map { $0 ? 1 : 0 }
                .replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "first(where:)") { subject, token in
            subject.first { _ in withExtendedLifetime(token) { false } }.eraseToAnyPublisher()
        },
        Case(name: "tryFirst(where:)") { subject, token in
            subject.tryFirst { _ in withExtendedLifetime(token) { false } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "last(where:)") { subject, token in
            subject.last { _ in withExtendedLifetime(token) { true } }.eraseToAnyPublisher()
        },
        Case(name: "tryLast(where:)") { subject, token in
            subject.tryLast { _ in withExtendedLifetime(token) { true } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "min(by:)") { subject, token in
            subject.min { a, b in withExtendedLifetime(token) { a < b } }.eraseToAnyPublisher()
        },
        Case(name: "tryMin(by:)") { subject, token in
            subject.tryMin { a, b in withExtendedLifetime(token) { a < b } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "max(by:)") { subject, token in
            subject.max { a, b in withExtendedLifetime(token) { a < b } }.eraseToAnyPublisher()
        },
        Case(name: "tryMax(by:)") { subject, token in
            subject.tryMax { a, b in withExtendedLifetime(token) { a < b } }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "flatMap") { subject, token in
            subject.flatMap { value in withExtendedLifetime(token) { Just(value) } }.eraseToAnyPublisher()
        },
        Case(name: "map then switchToLatest") { subject, token in
            subject.map { value in withExtendedLifetime(token) { Just(value) } }.switchToLatest().eraseToAnyPublisher()
        },
        Case(name: "mapError") { subject, token in
            subject.setFailureType(to: TestError.self).mapError { error in withExtendedLifetime(token) { error } }
                .replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "catch") { subject, token in
            subject.setFailureType(to: TestError.self).catch { _ in withExtendedLifetime(token) { Just(0) } }
                .eraseToAnyPublisher()
        },
        Case(name: "tryCatch") { subject, token in
            subject.setFailureType(to: TestError.self).tryCatch { _ in withExtendedLifetime(token) { Just(0) } }
                .replaceError(with: 0).eraseToAnyPublisher()
        },
        Case(name: "handleEvents") { subject, token in
            subject.handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} }).eraseToAnyPublisher()
        },
    ]

    @Test(arguments: cases)
    func cancellingLetsGoOfTheClosure(_ operatorCase: Case) {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: FlowToken?
        let cancellable: AnyCancellable
        do {
            let token = FlowToken()
            weakToken = token
            cancellable = operatorCase.make(subject, token).sink { _ in }
        }
        subject.send(1)
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil, "\(operatorCase.name) still holds its closure after cancel")
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: [false, true])
    func dropWhileLetsGoOfItsPredicateOnceItStopsDropping(throwing: Bool) {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = ClosureCheckSubscriber<Int, any Error>()
        weak var weakToken: FlowToken?
        do {
            let token = FlowToken()
            weakToken = token
            let predicate: @Sendable (Int) -> Bool = { value in withExtendedLifetime(token) { value < 5 } }
            if throwing {
                subject.tryDrop(while: predicate).subscribe(subscriber)
            } else {
                subject.drop(while: predicate).setFailureType(to: (any Error).self).subscribe(subscriber)
            }
        }
        subject.send(1)
        #expect(weakToken != nil, "still dropping: the predicate is needed")
        subject.send(7)
        #expect(weakToken == nil, "no longer dropping: the predicate is let go of")
        subject.send(2)
        #expect(subscriber.values == [7, 2])
        withExtendedLifetime(subscriber) {}
    }
}
