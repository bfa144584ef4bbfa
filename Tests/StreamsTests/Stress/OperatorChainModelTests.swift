import Foundation
import Streams
import StreamsTesting
import Testing

/// Random chains of synchronous operators, driven with random demand, checked against a reference
/// model over plain arrays (``ChainReference``).
///
/// Every run is seeded: a failure prints the seed, the case, the chain and both event lists. To replay
/// it, set `STREAMS_MODEL_SEED` (decimal or `0x` hex) to the seed, and `STREAMS_MODEL_CASE` to the
/// case to play only that one. `STREAMS_MODEL_CASES` changes how many cases each test plays.
@Suite struct OperatorChainModelTests {
    static let defaultSeed: UInt64 = 0x5EED_C0DE_2024
    static let defaultCaseCount = 500
    /// How many mismatches a test reports in full before it stops.
    static let reportedFailureLimit = 5

    static var seed: UInt64 { ModelRun.seed(default: defaultSeed) }

    /// The cases to play: all of them, or the one `STREAMS_MODEL_CASE` names.
    static var cases: Range<Int> { ModelRun.cases(default: defaultCaseCount) }

    @Test func sequenceSourcedChainsMatchTheModel() {
        checkChains(subjectSourced: false, stream: 1)
    }

    @Test func subjectSourcedChainsMatchTheModel() {
        checkChains(subjectSourced: true, stream: 2)
    }

    /// The model, played with unlimited demand, publishes what the operators' array forms compose to:
    /// its demand bookkeeping delays values but never changes them.
    @Test func modelAgreesWithTheArrayFormsOfTheOperators() {
        let seed = Self.seed
        for index in Self.cases {
            var random = SeededRandom(seed: seed, stream: 3 << 32 | index)
            var chainCase = ChainCase.random(using: &random, subjectSourced: false)
            chainCase.subscriber = SubscriberScript(initialDemand: .unlimited, demandPerValue: [], cancelAtValue: nil)
            chainCase.steps = []
            let composed = chainCase.operators.reduce((values: chainCase.source.input, failure: ChainFailure?.none)) {
                $1.apply(to: $0.values, failure: $0.failure)
            }
            let expected =
                [ChainEvent.subscription] + composed.values.map(ChainEvent.value)
                + [composed.failure.map(ChainEvent.failure) ?? .finished]
            let model = ChainReference.play(chainCase).events
            #expect(
                model == expected,
                """
                The model differs from the array forms. Replay with STREAMS_MODEL_SEED=\(seed) \
                STREAMS_MODEL_CASE=\(index).
                \(chainCase)
                arrays: \(expected.map(\.description).joined(separator: " "))
                model:  \(model.map(\.description).joined(separator: " "))
                """)
        }
    }

    /// A few fixed cases, to show the model encodes Combine's demand rules.
    @Test func modelFollowsTheDemandRulesOnKnownCases() {
        // A filter over a sequence: the 3 it drops is sent only once there is demand for it, and the
        // sequence finishes right after it, with no value.
        let filtered = ChainCase(
            source: .sequence([1, 2, 3]), operators: [.filter(ChainClosures.predicates[3])],  // $0 != 3
            fusesFirst: false, erasures: [false],
            subscriber: SubscriberScript(initialDemand: .max(2), demandPerValue: [], cancelAtValue: nil),
            steps: [.request(.max(1))])
        #expect(
            ChainReference.play(filtered).events == [
                .subscription, .value(1), .value(2), .step("request(.max(1))"), .finished,
            ])

        // A count waits for demand before it publishes, even after its upstream has finished.
        let counted = ChainCase(
            source: .subject([5, 6]), operators: [.count], fusesFirst: false, erasures: [false],
            subscriber: SubscriberScript(initialDemand: .none, demandPerValue: [], cancelAtValue: nil),
            steps: [.send(5), .send(6), .finish, .request(.max(1))])
        #expect(
            ChainReference.play(counted).events == [
                .subscription, .step("send(5)"), .step("send(6)"), .step("send(completion: .finished)"),
                .step("request(.max(1))"), .value(2), .finished,
            ])

        // A subject drops what is sent before demand reaches it; filter asks for one more per drop.
        let subject = ChainCase(
            source: .subject([1, 2, 4, 5, 6]), operators: [.filter(ChainClosures.predicates[0])],  // even
            fusesFirst: false, erasures: [false],
            subscriber: SubscriberScript(initialDemand: .none, demandPerValue: [], cancelAtValue: nil),
            steps: [.send(1), .request(.max(1)), .send(2), .send(4), .request(.max(1)), .send(5), .send(6)])
        #expect(
            ChainReference.play(subject).events == [
                .subscription, .step("send(1)"), .step("request(.max(1))"), .step("send(2)"), .value(2),
                .step("send(4)"), .step("request(.max(1))"), .step("send(5)"), .step("send(6)"), .value(6),
            ])
    }

    // MARK: - Running cases

    private func checkChains(subjectSourced: Bool, stream: Int) {
        let seed = Self.seed
        var failures = 0
        var redraws = 0
        for index in Self.cases {
            var random = SeededRandom(seed: seed, stream: stream << 32 | index)
            var chainCase: ChainCase
            var model: ChainReference
            repeat {
                chainCase = ChainCase.random(using: &random, subjectSourced: subjectSourced)
                model = ChainReference.play(chainCase)
                if model.ambiguity != nil { redraws += 1 }
            } while model.ambiguity != nil

            let outcome = Self.runThroughStreams(chainCase)
            let matches = outcome.events == model.events
            #expect(
                matches,
                """
                Operator chain differs from the model: \(subjectSourced ? "subject" : "sequence")-sourced \
                case \(index). Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index).
                \(chainCase)
                expected: \(model.events.map(\.description).joined(separator: " "))
                actual:   \(outcome.events.map(\.description).joined(separator: " "))
                """)
            #expect(
                outcome.released,
                """
                Operator chain was not released after it completed or was cancelled: \
                \(subjectSourced ? "subject" : "sequence")-sourced case \(index). Replay with \
                STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index).
                \(chainCase)
                """)
            if !matches || !outcome.released {
                failures += 1
                if failures == Self.reportedFailureLimit { break }
            }
        }
        // The generator redraws only the rare cases whose outcome Combine leaves undocumented.
        #expect(redraws <= Self.cases.count / 4, "\(redraws) redrawn cases for \(Self.cases.count)")
    }

    struct Outcome {
        var events: [ChainEvent]
        var released: Bool
    }

    /// Builds the chain, plays the steps and records what the subscriber saw; then lets go of
    /// everything but the source and checks that the chain was released.
    static func runThroughStreams(_ chainCase: ChainCase) -> Outcome {
        let subject = PassthroughSubject<Int, ChainFailure>()
        weak var weakSubscriber: TestSubscriber<Int, ChainFailure>?
        weak var weakToken: Tracked?
        var events: [ChainEvent] = []
        do {
            // Captured by every closure in the chain: it outlives the chain only if something leaks.
            let token = Tracked()
            let subscriber = makeSubscriber(chainCase.subscriber)
            weakSubscriber = subscriber
            weakToken = token

            let erasures = chainCase.erasures[...]
            switch chainCase.source {
            case .sequence(let input) where chainCase.fusesFirst:
                attachFused(
                    input, chainCase.operators[0], then: chainCase.operators.dropFirst(), erasures: erasures,
                    token: token, subscriber: subscriber)
            case .sequence(let input):
                // The same as `input.publisher.setFailureType(to: ChainFailure.self)`.
                attach(
                    Publishers.Sequence<[Int], ChainFailure>(sequence: input), chainCase.operators[...],
                    erasures: erasures, token: token, subscriber: subscriber)
            case .subject:
                attach(subject, chainCase.operators[...], erasures: erasures, token: token, subscriber: subscriber)
            }

            var seen = 0
            func record() {
                let all = subscriber.events
                events += all[seen...].map(ChainEvent.init)
                seen = all.count
            }
            for step in chainCase.steps {
                record()
                events.append(.step(step.description))
                switch step {
                case .request(let demand): subscriber.request(demand.streams)
                case .send(let value): subject.send(value)
                case .finish: subject.send(completion: .finished)
                case .fail: subject.send(completion: .failure(.sent))
                case .cancel: subscriber.cancel()
                }
            }
            record()
            // Let go of a chain that is still running.
            if subscriber.completion == nil { subscriber.cancel() }
        }
        // The subject is still alive: it must have let go of a completed or cancelled chain.
        let released = weakSubscriber == nil && weakToken == nil
        withExtendedLifetime(subject) {}
        return Outcome(events: events, released: released)
    }

    /// A `TestSubscriber` that follows the script: it requests and returns the scripted demand in
    /// each `receive(_:)`, and cancels inside the scripted one.
    private static func makeSubscriber(_ script: SubscriberScript) -> TestSubscriber<Int, ChainFailure> {
        let counter = ReceiveCounter()
        let subscriber = TestSubscriber<Int, ChainFailure>(initialDemand: script.initialDemand.streams) { _ in
            script.demand(afterValue: counter.received).streams
        }
        subscriber.onReceiveValue { [weak subscriber] _ in
            counter.received += 1
            let request = script.request(insideValue: counter.received)
            if request.isPositive { subscriber?.request(request.streams) }
            if counter.received == script.cancelAtValue { subscriber?.cancel() }
        }
        return subscriber
    }

    // MARK: - Building chains

    /// Applies the operators to `publisher` through the generic operators, erasing where the case
    /// says, and subscribes the subscriber at the end.
    private static func attach<Upstream: Publisher>(
        _ publisher: Upstream, _ operators: ArraySlice<ChainOperator>, erasures: ArraySlice<Bool>,
        token: Tracked, subscriber: TestSubscriber<Int, ChainFailure>
    ) where Upstream.Output == Int, Upstream.Failure == ChainFailure {
        guard let op = operators.first, let erase = erasures.first else {
            publisher.subscribe(subscriber)
            return
        }
        func next<Next: Publisher>(_ next: Next) where Next.Output == Int, Next.Failure == ChainFailure {
            let rest = operators.dropFirst()
            let restErasures = erasures.dropFirst()
            if erase {
                attach(next.eraseToAnyPublisher(), rest, erasures: restErasures, token: token, subscriber: subscriber)
            } else {
                attach(next, rest, erasures: restErasures, token: token, subscriber: subscriber)
            }
        }
        switch op {
        case .map(let transform): next(publisher.map { value in token.touch { transform.apply(value) } })
        case .filter(let predicate): next(publisher.filter { value in token.touch { predicate.test(value) } })
        case .compactMap(let transform):
            next(publisher.compactMap { value in token.touch { transform.apply(value) } })
        case .removeDuplicates: next(publisher.removeDuplicates())
        case .scan(let accumulation):
            next(
                publisher.scan(accumulation.initial) { result, value in
                    token.touch { accumulation.combine(result, value) }
                })
        case .prefix(let count): next(publisher.prefix(count))
        case .dropFirst(let count): next(publisher.dropFirst(count))
        case .dropWhile(let predicate): next(publisher.drop { value in token.touch { predicate.test(value) } })
        case .prefixWhile(let predicate): next(publisher.prefix { value in token.touch { predicate.test(value) } })
        case .output(let range): next(publisher.output(in: range))
        case .outputAt(let index): next(publisher.output(at: index))
        case .collect(let count):
            next(publisher.collect(count).map { values in token.touch { ChainClosures.encode(values) } })
        case .firstWhere(let predicate): next(publisher.first { value in token.touch { predicate.test(value) } })
        case .first: next(publisher.first())
        case .last: next(publisher.last())
        case .lastWhere(let predicate): next(publisher.last { value in token.touch { predicate.test(value) } })
        case .reduce(let accumulation):
            next(
                publisher.reduce(accumulation.initial) { result, value in
                    token.touch { accumulation.combine(result, value) }
                })
        case .count: next(publisher.count())
        case .min: next(publisher.min())
        case .max: next(publisher.max())
        case .allSatisfy(let predicate):
            next(publisher.allSatisfy { value in token.touch { predicate.test(value) } }.map { $0 ? 1 : 0 })
        case .contains(let value): next(publisher.contains(value).map { $0 ? 1 : 0 })
        case .containsWhere(let predicate):
            next(publisher.contains { value in token.touch { predicate.test(value) } }.map { $0 ? 1 : 0 })
        case .collectAll: next(publisher.collect().map { values in token.touch { ChainClosures.encode(values) } })
        case .ignoreOutput: next(publisher.ignoreOutput().map(absurd))
        case .replaceEmpty(let value): next(publisher.replaceEmpty(with: value))
        case .throwing(let base, let trigger):
            /// Throws on the trigger; holds on to the token.
            func check(_ values: Int...) throws {
                try token.touch { if values.contains(trigger) { throw ChainFailure.thrown } }
            }
            /// `body`, checked first.
            func checked<Result>(_ body: @escaping (Int) -> Result) -> (Int) throws -> Result {
                { value in
                    try check(value)
                    return body(value)
                }
            }
            let toInt: (Bool) -> Int = { $0 ? 1 : 0 }
            switch base {
            case .map(let transform): next(publisher.tryMap(checked(transform.apply)).mapError(ChainFailure.init))
            case .filter(let predicate): next(publisher.tryFilter(checked(predicate.test)).mapError(ChainFailure.init))
            case .compactMap(let transform):
                next(publisher.tryCompactMap(checked(transform.apply)).mapError(ChainFailure.init))
            case .scan(let accumulation):
                next(
                    publisher.tryScan(accumulation.initial) { result, value in
                        try check(value)
                        return accumulation.combine(result, value)
                    }.mapError(ChainFailure.init))
            case .removeDuplicates:
                next(
                    publisher.tryRemoveDuplicates { previous, value in
                        try check(value)
                        return previous == value
                    }.mapError(ChainFailure.init))
            case .dropWhile(let predicate):
                next(publisher.tryDrop(while: checked(predicate.test)).mapError(ChainFailure.init))
            case .prefixWhile(let predicate):
                next(publisher.tryPrefix(while: checked(predicate.test)).mapError(ChainFailure.init))
            case .firstWhere(let predicate):
                next(publisher.tryFirst(where: checked(predicate.test)).mapError(ChainFailure.init))
            case .lastWhere(let predicate):
                next(publisher.tryLast(where: checked(predicate.test)).mapError(ChainFailure.init))
            case .allSatisfy(let predicate):
                next(publisher.tryAllSatisfy(checked(predicate.test)).map(toInt).mapError(ChainFailure.init))
            case .containsWhere(let predicate):
                next(publisher.tryContains(where: checked(predicate.test)).map(toInt).mapError(ChainFailure.init))
            case .reduce(let accumulation):
                next(
                    publisher.tryReduce(accumulation.initial) { result, value in
                        try check(value)
                        return accumulation.combine(result, value)
                    }.mapError(ChainFailure.init))
            case .min:
                next(
                    publisher.tryMin { first, second in
                        try check(first, second)
                        return first < second
                    }.mapError(ChainFailure.init))
            case .max:
                next(
                    publisher.tryMax { first, second in
                        try check(first, second)
                        return first < second
                    }.mapError(ChainFailure.init))
            default: preconditionFailure("\(base) has no try variant")
            }
        }
    }

    /// Applies `first` with `Publishers.Sequence`'s own version of it, then the rest generically.
    private static func attachFused(
        _ input: [Int], _ first: ChainOperator, then operators: ArraySlice<ChainOperator>,
        erasures: ArraySlice<Bool>, token: Tracked, subscriber: TestSubscriber<Int, ChainFailure>
    ) {
        let sequence = input.publisher
        func next<Next: Publisher>(_ next: Next) where Next.Output == Int, Next.Failure == Never {
            let failing = next.setFailureType(to: ChainFailure.self)
            if erasures.first == true {
                attach(
                    failing.eraseToAnyPublisher(), operators, erasures: erasures.dropFirst(), token: token,
                    subscriber: subscriber)
            } else {
                attach(failing, operators, erasures: erasures.dropFirst(), token: token, subscriber: subscriber)
            }
        }
        switch first {
        case .map(let transform): next(sequence.map { value in token.touch { transform.apply(value) } })
        case .filter(let predicate): next(sequence.filter { value in token.touch { predicate.test(value) } })
        case .compactMap(let transform):
            next(sequence.compactMap { value in token.touch { transform.apply(value) } })
        case .removeDuplicates: next(sequence.removeDuplicates())
        case .scan(let accumulation):
            next(
                sequence.scan(accumulation.initial) { result, value in
                    token.touch { accumulation.combine(result, value) }
                })
        case .prefix(let count): next(sequence.prefix(count))
        case .dropFirst(let count): next(sequence.dropFirst(count))
        case .dropWhile(let predicate): next(sequence.drop { value in token.touch { predicate.test(value) } })
        case .prefixWhile(let predicate): next(sequence.prefix { value in token.touch { predicate.test(value) } })
        case .output(let range): next(sequence.output(in: range))
        case .outputAt(let index): next(sequence.output(at: index))
        case .firstWhere(let predicate): next(sequence.first { value in token.touch { predicate.test(value) } })
        case .first: next(sequence.first())
        case .last: next(sequence.last())
        case .lastWhere(let predicate): next(sequence.last { value in token.touch { predicate.test(value) } })
        case .reduce(let accumulation):
            next(
                sequence.reduce(accumulation.initial) { result, value in
                    token.touch { accumulation.combine(result, value) }
                })
        case .count: next(sequence.count())
        case .min: next(sequence.min())
        case .max: next(sequence.max())
        case .allSatisfy(let predicate):
            next(sequence.allSatisfy { value in token.touch { predicate.test(value) } }.map { $0 ? 1 : 0 })
        case .contains(let value): next(sequence.contains(value).map { $0 ? 1 : 0 })
        case .containsWhere(let predicate):
            next(sequence.contains { value in token.touch { predicate.test(value) } }.map { $0 ? 1 : 0 })
        case .collectAll: next(sequence.collect().map { values in token.touch { ChainClosures.encode(values) } })
        case .ignoreOutput: next(sequence.ignoreOutput())
        case .collect, .replaceEmpty, .throwing:
            preconditionFailure("\(first) is not applied by Publishers.Sequence itself")
        }
    }
}

/// How many values a scripted subscriber has received.
private final class ReceiveCounter {
    var received = 0
}

/// The `map` after `ignoreOutput()`, which never runs.
private func absurd(_ never: Never) -> Int {}

extension Tracked {
    /// Runs `body`; a closure that calls this holds on to the token.
    func touch<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self, body)
    }
}

extension ChainEvent {
    init(_ event: TestEvent<Int, ChainFailure>) {
        switch event {
        case .subscription: self = .subscription
        case .value(let value): self = .value(value)
        case .completion(.finished): self = .finished
        case .completion(.failure(let failure)): self = .failure(failure)
        }
    }
}
