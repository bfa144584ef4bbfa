import Streams

// The cases the operator-chain model test plays: random chains of synchronous operators over a
// source of small integers, with a subscriber that asks for values in random ways. The operators'
// closures are shared by the chain run through Streams and by the reference model, and each operator
// states what it computes over plain arrays.

// MARK: - Demand

/// Demand in the reference model: a count, or unlimited. Written apart from `Subscribers.Demand` so
/// the model does not rest on the arithmetic it checks.
struct ModelDemand: Equatable, Sendable, CustomStringConvertible {
    /// The number of values, or `nil` for unlimited.
    var limit: Int?

    static let none = ModelDemand(limit: 0)
    static let unlimited = ModelDemand(limit: nil)

    static func max(_ count: Int) -> ModelDemand {
        ModelDemand(limit: count)
    }

    var isPositive: Bool { limit.map { $0 > 0 } ?? true }

    /// The same demand for Streams.
    var streams: Subscribers.Demand { limit.map { .max($0) } ?? .unlimited }

    static func + (lhs: ModelDemand, rhs: ModelDemand) -> ModelDemand {
        guard let left = lhs.limit, let right = rhs.limit else { return .unlimited }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? .unlimited : .max(sum)
    }

    static func += (lhs: inout ModelDemand, rhs: ModelDemand) {
        lhs = lhs + rhs
    }

    static func * (lhs: ModelDemand, rhs: Int) -> ModelDemand {
        guard let left = lhs.limit else { return .unlimited }
        let (product, overflow) = left.multipliedReportingOverflow(by: rhs)
        return overflow ? .unlimited : .max(product)
    }

    /// One value was delivered against this demand.
    mutating func consumeOne() {
        if let count = limit { limit = Swift.max(count - 1, 0) }
    }

    var description: String { limit.map { $0 == 0 ? ".none" : ".max(\($0))" } ?? ".unlimited" }
}

// MARK: - Closures

/// A function on small integers, named by its source so a failing chain reads as code.
struct NamedTransform: Sendable, CustomStringConvertible {
    let description: String
    let apply: @Sendable (Int) -> Int
}

/// A test on small integers, named by its source.
struct NamedPredicate: Sendable, CustomStringConvertible {
    let description: String
    let test: @Sendable (Int) -> Bool
}

/// A function that keeps some integers and drops others, named by its source.
struct NamedPartialTransform: Sendable, CustomStringConvertible {
    let description: String
    let apply: @Sendable (Int) -> Int?
}

/// An initial result and a combining function, as `scan` and `reduce` take them.
struct NamedAccumulation: Sendable, CustomStringConvertible {
    let initial: Int
    let name: String
    let combine: @Sendable (Int, Int) -> Int

    var description: String { "\(initial), \(name)" }
}

enum ChainClosures {
    static let transforms = [
        NamedTransform(description: "{ $0 * 2 }") { $0 * 2 },
        NamedTransform(description: "{ $0 + 1 }") { $0 + 1 },
        NamedTransform(description: "{ $0 % 3 }") { $0 % 3 },
        NamedTransform(description: "{ ($0 * 5 + 1) % 8 }") { ($0 * 5 + 1) % 8 },
    ]

    /// Mostly lenient tests, so that chains of several filters still carry values.
    static let predicates = [
        NamedPredicate(description: "{ $0.isMultiple(of: 2) }") { $0.isMultiple(of: 2) },
        NamedPredicate(description: "{ $0 > 1 }") { $0 > 1 },
        NamedPredicate(description: "{ $0 < 5 }") { $0 < 5 },
        NamedPredicate(description: "{ $0 != 3 }") { $0 != 3 },
        NamedPredicate(description: "{ $0 % 3 != 0 }") { $0 % 3 != 0 },
    ]

    /// Stricter tests for `drop(while:)`, which would drop everything with the lenient ones.
    static let dropPredicates = [
        NamedPredicate(description: "{ $0.isMultiple(of: 2) }") { $0.isMultiple(of: 2) },
        NamedPredicate(description: "{ $0 < 2 }") { $0 < 2 },
        NamedPredicate(description: "{ $0 > 4 }") { $0 > 4 },
    ]

    static let partialTransforms = [
        NamedPartialTransform(description: "{ $0 % 3 == 0 ? nil : $0 / 2 }") { $0 % 3 == 0 ? nil : $0 / 2 },
        NamedPartialTransform(description: "{ $0 > 4 ? nil : $0 + 10 }") { $0 > 4 ? nil : $0 + 10 },
    ]

    static let accumulations = [
        NamedAccumulation(initial: 0, name: "{ ($0 + $1) % 10 }") { ($0 + $1) % 10 },
        NamedAccumulation(initial: 1, name: "{ ($0 * 2 + $1) % 13 }") { ($0 * 2 + $1) % 13 },
    ]

    /// Turns an array (from `collect`) into one integer, so every chain carries integers. Equal arrays
    /// give equal integers; the count is readable in the thousands.
    static func encode(_ values: [Int]) -> Int {
        values.count * 1000 + values.reduce(0) { ($0 * 7 + $1) % 997 }
    }
}

// MARK: - Operators

/// One synchronous operator, named as Combine names it.
enum ChainOperator: Sendable, CustomStringConvertible {
    case map(NamedTransform)
    case filter(NamedPredicate)
    case compactMap(NamedPartialTransform)
    case removeDuplicates
    case scan(NamedAccumulation)
    case prefix(Int)
    case dropFirst(Int)
    case dropWhile(NamedPredicate)
    case prefixWhile(NamedPredicate)
    case output(Range<Int>)
    case outputAt(Int)
    /// `collect(n)`, then `map(ChainClosures.encode)`.
    case collect(Int)
    case firstWhere(NamedPredicate)
    case first
    case last
    case lastWhere(NamedPredicate)
    case reduce(NamedAccumulation)
    case count
    case min
    case max
    /// `allSatisfy`, then `map { $0 ? 1 : 0 }`; likewise the two `contains`.
    case allSatisfy(NamedPredicate)
    case contains(Int)
    case containsWhere(NamedPredicate)
    /// `collect()`, then `map(ChainClosures.encode)`.
    case collectAll
    /// `ignoreOutput()`, then a `map` from `Never` back to `Int`.
    case ignoreOutput
    case replaceEmpty(Int)
    /// The `try` variant of `base` (map, filter, compactMap, scan, removeDuplicates, drop(while:),
    /// prefix(while:), first(where:), last(where:), allSatisfy, contains(where:), reduce, min, max),
    /// whose closure throws `ChainFailure.thrown` when it meets `trigger`, followed by a `mapError`
    /// back to `ChainFailure`.
    indirect case throwing(ChainOperator, on: Int)

    var description: String {
        switch self {
        case .map(let transform): ".map \(transform)"
        case .filter(let predicate): ".filter \(predicate)"
        case .compactMap(let transform): ".compactMap \(transform)"
        case .removeDuplicates: ".removeDuplicates()"
        case .scan(let accumulation): ".scan(\(accumulation))"
        case .prefix(let count): ".prefix(\(count))"
        case .dropFirst(let count): ".dropFirst(\(count))"
        case .dropWhile(let predicate): ".drop(while: \(predicate))"
        case .prefixWhile(let predicate): ".prefix(while: \(predicate))"
        case .output(let range): ".output(in: \(range.lowerBound)..<\(range.upperBound))"
        case .outputAt(let index): ".output(at: \(index))"
        case .collect(let count): ".collect(\(count)).map(encode)"
        case .firstWhere(let predicate): ".first(where: \(predicate))"
        case .first: ".first()"
        case .last: ".last()"
        case .lastWhere(let predicate): ".last(where: \(predicate))"
        case .reduce(let accumulation): ".reduce(\(accumulation))"
        case .count: ".count()"
        case .min: ".min()"
        case .max: ".max()"
        case .allSatisfy(let predicate): ".allSatisfy \(predicate).map { $0 ? 1 : 0 }"
        case .contains(let value): ".contains(\(value)).map { $0 ? 1 : 0 }"
        case .containsWhere(let predicate): ".contains(where: \(predicate)).map { $0 ? 1 : 0 }"
        case .collectAll: ".collect().map(encode)"
        case .ignoreOutput: ".ignoreOutput().map(absurd)"
        case .replaceEmpty(let value): ".replaceEmpty(with: \(value))"
        case .throwing(let base, let trigger):
            switch base {
            case .min: ".tryMin(by: <) /* throws on \(trigger) */.mapError(ChainFailure.init)"
            case .max: ".tryMax(by: <) /* throws on \(trigger) */.mapError(ChainFailure.init)"
            case .removeDuplicates:
                ".tryRemoveDuplicates(by: ==) /* throws on \(trigger) */.mapError(ChainFailure.init)"
            default:
                // `.map { ... }` becomes `.tryMap { ... }`, and so on.
                ".try\(base.description.dropFirst().prefix(1).uppercased())\(base.description.dropFirst(2))"
                    + " /* throws on \(trigger) */.mapError(ChainFailure.init)"
            }
        }
    }

    /// The operators that have a `try` variant.
    var hasThrowingVariant: Bool {
        switch self {
        case .map, .filter, .compactMap, .scan, .removeDuplicates, .dropWhile, .prefixWhile, .firstWhere,
            .lastWhere, .allSatisfy, .containsWhere, .reduce, .min, .max:
            true
        default: false
        }
    }
}

/// How an operator treats demand, which decides how the reference model drives it.
enum OperatorShape {
    /// One value out at most for each value in; demand passes upstream unchanged, and each value in
    /// that brings nothing out is replaced by a request for one more. It may end the stream itself:
    /// it then cancels upstream and finishes (or fails, for a `try` variant whose closure throws).
    /// (map, filter, compactMap, removeDuplicates, scan, drop(while:), prefix(while:), output(in:),
    /// prefix.)
    case filterLike
    /// Requests `count` upstream as it subscribes, on top of what downstream asks for, and drops that
    /// many values without asking for more. (dropFirst.)
    case dropFirst(Int)
    /// Asks upstream for `count` values for each value asked of it; on finishing, sends the values
    /// left over without looking at demand (there is always demand for them: upstream sent fewer
    /// values than were asked for). (collect by count.)
    case collect(Int)
    /// Requests unlimited upstream as it subscribes; publishes at most one value, and then finishes,
    /// once it has its result and downstream has asked for anything, even when there is no value to
    /// send. It may end early, cancelling upstream. A failure passes at once. (first(where:), reduce,
    /// count, min, ...)
    case reduceLike
    /// Requests unlimited upstream and passes the completion at once.
    case ignoreOutput
    /// Passes values and demand through; an upstream that finishes without a value is replaced by
    /// `value` once downstream has demand.
    case replaceEmpty(Int)
}

extension ChainOperator {
    var shape: OperatorShape {
        switch self {
        case .map, .filter, .compactMap, .removeDuplicates, .scan, .prefix, .dropWhile, .prefixWhile,
            .output, .outputAt:
            .filterLike
        case .dropFirst(let count): .dropFirst(count)
        case .collect(let count): .collect(count)
        case .firstWhere, .first, .last, .lastWhere, .reduce, .count, .min, .max, .allSatisfy, .contains,
            .containsWhere, .collectAll:
            .reduceLike
        case .ignoreOutput: .ignoreOutput
        case .replaceEmpty(let value): .replaceEmpty(value)
        case .throwing(let base, _): base.shape
        }
    }

    /// For a `try` variant: whether its closure throws as it handles the last of `inputs` (having not
    /// thrown before). Each variant calls its closure on the values its plain version looks at.
    func throwsAt(_ inputs: [Int]) -> Bool {
        guard case .throwing(let base, let trigger) = self, let last = inputs.last else { return false }
        let earlier = inputs.dropLast()
        switch base {
        case .dropWhile(let predicate):
            // Called only while dropping.
            return last == trigger && earlier.allSatisfy(predicate.test)
        case .removeDuplicates:
            // Compares each value with the one before it, from the second on.
            return last == trigger && !earlier.isEmpty
        case .min, .max:
            // Compares each value with the result so far, from the second on; throws at the first
            // comparison that involves the trigger.
            return !earlier.isEmpty && inputs.contains(trigger)
        default:
            // The others call their closure on each value until they end.
            return last == trigger
        }
    }

    /// For the filter-like operators, dropFirst and collect: everything the operator has sent once it
    /// has received `inputs`, stated over arrays. Each value in adds at most one value out.
    func outputs(after inputs: [Int]) -> [Int] {
        switch self {
        case .map(let transform): inputs.map(transform.apply)
        case .filter(let predicate): inputs.filter(predicate.test)
        case .compactMap(let transform): inputs.compactMap(transform.apply)
        case .removeDuplicates: inputs.indices.filter { $0 == 0 || inputs[$0 - 1] != inputs[$0] }.map { inputs[$0] }
        case .scan(let accumulation):
            inputs.reduce(into: [Int]()) { results, value in
                results.append(accumulation.combine(results.last ?? accumulation.initial, value))
            }
        case .prefix(let count): Array(inputs.prefix(count))
        case .dropFirst(let count): Array(inputs.dropFirst(count))
        case .dropWhile(let predicate): Array(inputs.drop(while: predicate.test))
        case .prefixWhile(let predicate): Array(inputs.prefix(while: predicate.test))
        case .output(let range): Array(inputs.prefix(range.upperBound).dropFirst(range.lowerBound))
        case .outputAt(let index): Array(inputs.prefix(index + 1).dropFirst(index))
        case .collect(let count):
            stride(from: 0, to: inputs.count - inputs.count % count, by: count).map {
                ChainClosures.encode(Array(inputs[$0..<($0 + count)]))
            }
        case .replaceEmpty: inputs
        case .throwing(let base, _): base.outputs(after: inputs)
        default: preconditionFailure("\(self) has no running outputs")
        }
    }

    /// For the filter-like and reduce-like operators: whether the operator ends the stream by itself
    /// once it has received `inputs` (it needs no more to know its outputs).
    func ends(after inputs: [Int]) -> Bool {
        switch self {
        case .prefix(let count): inputs.count >= count
        case .output(let range): inputs.count >= range.upperBound
        case .outputAt(let index): inputs.count > index
        case .prefixWhile(let predicate): inputs.contains { !predicate.test($0) }
        case .firstWhere(let predicate), .containsWhere(let predicate): inputs.contains(where: predicate.test)
        case .first: !inputs.isEmpty
        case .allSatisfy(let predicate): inputs.contains { !predicate.test($0) }
        case .contains(let value): inputs.contains(value)
        case .throwing(let base, _): base.ends(after: inputs)
        default: false
        }
    }

    /// For the reduce-like operators: the value published once `inputs` is all there is, or `nil` for
    /// none.
    func result(of inputs: [Int]) -> Int? {
        switch self {
        case .firstWhere(let predicate): inputs.first(where: predicate.test)
        case .first: inputs.first
        case .last: inputs.last
        case .lastWhere(let predicate): inputs.last(where: predicate.test)
        case .reduce(let accumulation): inputs.reduce(accumulation.initial, accumulation.combine)
        case .count: inputs.count
        case .min: inputs.min()
        case .max: inputs.max()
        case .allSatisfy(let predicate): inputs.allSatisfy(predicate.test) ? 1 : 0
        case .contains(let value): inputs.contains(value) ? 1 : 0
        case .containsWhere(let predicate): inputs.contains(where: predicate.test) ? 1 : 0
        case .collectAll: ChainClosures.encode(inputs)
        case .throwing(let base, _): base.result(of: inputs)
        default: preconditionFailure("\(self) has no result")
        }
    }

    /// Everything the operator publishes over the whole of `input`, with unlimited demand: the array
    /// form of the operator. `failure` is how the input ended, if it failed; the result says how the
    /// output ends.
    func apply(to input: [Int], failure: ChainFailure? = nil) -> (values: [Int], failure: ChainFailure?) {
        // The input up to the value at which the operator throws or ends by itself, if any.
        for end in input.indices {
            let seen = Array(input[...end])
            if throwsAt(seen) {
                switch shape {
                case .filterLike, .dropFirst, .collect, .replaceEmpty:
                    return (outputs(after: Array(seen.dropLast())), .thrown)
                case .reduceLike, .ignoreOutput: return ([], .thrown)
                }
            }
            if ends(after: seen) {
                switch shape {
                case .reduceLike: return (result(of: seen).map { [$0] } ?? [], nil)
                default: return (outputs(after: seen), nil)
                }
            }
        }
        switch shape {
        case .filterLike, .dropFirst: return (outputs(after: input), failure)
        case .collect(let count):
            let remainder = Array(input.suffix(input.count % count))
            let rest = remainder.isEmpty || failure != nil ? [] : [ChainClosures.encode(remainder)]
            return (outputs(after: input) + rest, failure)
        case .reduceLike: return (failure == nil ? result(of: input).map { [$0] } ?? [] : [], failure)
        case .ignoreOutput: return ([], failure)
        case .replaceEmpty(let value): return (input.isEmpty && failure == nil ? [value] : input, failure)
        }
    }

    /// Whether `Publishers.Sequence` declares this operator on itself, computing the result at once
    /// (as Combine does), for an input of `count` elements.
    ///
    /// `output(in:)` on the sequence slices the array, which traps for a range past its end, in Combine
    /// as here; such a range is applied through the generic operator instead.
    func fusesIntoSequence(ofCount count: Int) -> Bool {
        switch self {
        // Collect by count and replaceEmpty have no version of their own; the few `try` operators
        // Publishers.Sequence has of its own are left to the generic ones.
        case .collect, .replaceEmpty, .throwing: false
        case .output(let range): range.upperBound <= count
        default: true
        }
    }

    /// Whether `Publishers.Sequence`'s own version of the operator returns a publisher of one value
    /// (`Just`, `Optional.Publisher`, `Result.Publisher`, `Empty`) rather than another sequence.
    var fusesIntoSingleValue: Bool {
        switch self {
        case .outputAt, .ignoreOutput: true
        default: if case .reduceLike = shape { true } else { false }
        }
    }
}

// MARK: - Cases

/// A step the test takes after subscribing.
enum ChainStep: Sendable, CustomStringConvertible {
    case request(ModelDemand)
    case send(Int)
    case finish
    case fail
    case cancel

    var description: String {
        switch self {
        case .request(let demand): "request(\(demand))"
        case .send(let value): "send(\(value))"
        case .finish: "send(completion: .finished)"
        case .fail: "send(completion: .failure(.sent))"
        case .cancel: "cancel()"
        }
    }
}

/// The error a chain fails with, by where it came from.
enum ChainFailure: Error, Equatable, Sendable {
    /// Sent by the subject the chain publishes from.
    case sent
    /// Thrown by the closure of a `try` operator.
    case thrown
    /// Made by `timeout(_:scheduler:customError:)` when the time ran out.
    case timedOut
    /// Made by a full `buffer(size:prefetch:whenFull:)` with a custom error.
    case full
    /// Any other error (which no chain should fail with).
    case foreign

    init(_ error: any Error) {
        self = (error as? ChainFailure) ?? .foreign
    }
}

/// What a chain publishes from.
enum ChainSource: Sendable {
    /// `input.publisher`, which sends as demand allows and finishes right after its last element.
    case sequence([Int])
    /// A `PassthroughSubject` the steps send into; it drops what is sent without demand.
    case subject([Int])

    var input: [Int] {
        switch self {
        case .sequence(let input), .subject(let input): input
        }
    }
}

/// How the subscriber at the end of the chain asks for values.
struct SubscriberScript: Sendable, CustomStringConvertible {
    /// What it requests as the subscription arrives.
    var initialDemand: ModelDemand
    /// What it returns from its `n`-th `receive(_:)`, at index `n - 1` (`.none` past the end).
    var demandPerValue: [ModelDemand]
    /// What it requests from inside its `n`-th `receive(_:)`, at index `n - 1`, before it returns
    /// (`.none`, or past the end: nothing).
    var requestPerValue: [ModelDemand] = []
    /// The value in whose `receive(_:)` it cancels, counting from 1.
    var cancelAtValue: Int?

    func demand(afterValue count: Int) -> ModelDemand {
        count <= demandPerValue.count ? demandPerValue[count - 1] : .none
    }

    func request(insideValue count: Int) -> ModelDemand {
        count <= requestPerValue.count ? requestPerValue[count - 1] : .none
    }

    var description: String {
        var text = "initial demand \(initialDemand), then from each receive \(demandPerValue)"
        if requestPerValue.contains(where: \.isPositive) { text += ", requests inside each receive \(requestPerValue)" }
        if let cancelAtValue { text += ", cancels inside receive of value #\(cancelAtValue)" }
        return text
    }
}

/// One generated case: a source, a chain of operators, a subscriber and the steps that drive it.
struct ChainCase: Sendable, CustomStringConvertible {
    var source: ChainSource
    var operators: [ChainOperator]
    /// Whether the first operator is applied to `Publishers.Sequence` itself (its own version of the
    /// operator), rather than through the generic one.
    var fusesFirst: Bool
    /// For each operator, whether its publisher is erased with `eraseToAnyPublisher()`.
    var erasures: [Bool]
    var subscriber: SubscriberScript
    var steps: [ChainStep]

    var description: String {
        var chain: String
        switch source {
        case .sequence(let input):
            chain = "\(input).publisher" + (fusesFirst ? "" : ".setFailureType(to: ChainFailure.self)")
        case .subject(let input): chain = "PassthroughSubject<Int, ChainFailure>() /* sent \(input) */"
        }
        for (index, op) in operators.enumerated() {
            chain += op.description
            if index == 0, fusesFirst {
                chain += " /* Publishers.Sequence's own */.setFailureType(to: ChainFailure.self)"
            }
            if erasures[index] { chain += ".eraseToAnyPublisher()" }
        }
        return """
            chain: \(chain)
            subscriber: \(subscriber)
            steps: \(steps.map(\.description).joined(separator: "; "))
            """
    }
}

// MARK: - Generation

extension ChainCase {
    /// A random case. `subjectSourced` picks the source kind.
    static func random(using random: inout SeededRandom, subjectSourced: Bool) -> ChainCase {
        let input = (0..<random.pick(weighted: [(1, 0), (1, 1), (2, 2), (3, 3), (4, 5), (5, 7), (4, 9), (3, 12)]))
            .map { _ in random.int(in: 0...6) }
        let source: ChainSource = subjectSourced ? .subject(input) : .sequence(input)
        let subscriber = SubscriberScript(
            initialDemand: random.pick(weighted: [
                (20, .none), (25, .max(1)), (15, .max(2)), (15, .max(3)), (10, .max(5)), (15, .unlimited),
            ]),
            demandPerValue: (0..<12).map { _ in
                random.pick(weighted: [(55, .none), (30, .max(1)), (10, .max(2)), (5, .unlimited)])
            },
            requestPerValue: random.chance(25)
                ? (0..<12).map { _ in random.pick(weighted: [(70, .none), (25, .max(1)), (5, .max(3))]) } : [],
            cancelAtValue: random.chance(25) ? random.int(in: 1...3) : nil)

        var operators: [ChainOperator]
        repeat {
            operators = (0..<random.int(in: 1...5)).map { _ in
                let op = randomOperator(using: &random)
                return op.hasThrowingVariant && random.chance(20) ? .throwing(op, on: random.int(in: 0...6)) : op
            }
        } while !replacementsAreUnambiguous(operators, initialDemand: subscriber.initialDemand)

        let fusesFirst =
            !subjectSourced && operators[0].fusesIntoSequence(ofCount: input.count) && random.chance(30)
        let erasures = operators.map { _ in random.chance(40) }

        var steps: [ChainStep] = []
        func maybeRequest(_ percent: Int) {
            if random.chance(percent) {
                steps.append(
                    .request(random.pick(weighted: [(40, .max(1)), (30, .max(2)), (15, .max(4)), (15, .unlimited)])))
            }
        }
        if subjectSourced {
            for value in input {
                maybeRequest(30)
                steps.append(.send(value))
            }
            steps.append(contentsOf: random.pick(weighted: [(55, [.finish]), (25, [.fail]), (20, [])]))
            for _ in 0..<random.int(in: 0...2) { maybeRequest(100) }
        } else {
            for _ in 0..<random.int(in: 0...4) { maybeRequest(100) }
        }
        if random.chance(12) { steps.insert(.cancel, at: random.int(in: 0...steps.count)) }

        return ChainCase(
            source: source, operators: operators, fusesFirst: fusesFirst, erasures: erasures,
            subscriber: subscriber, steps: steps)
    }

    /// A random operator. Those that pass values on one for one are drawn most often (about 70%), so
    /// that chains carry several values; reduce-like operators, which end with one value, about 20%.
    static func randomOperator(using random: inout SeededRandom) -> ChainOperator {
        let closures = ChainClosures.self
        switch random.int(in: 0...39) {
        case 0...3: return .map(random.pick(closures.transforms))
        case 4...7: return .filter(random.pick(closures.predicates))
        case 8, 9: return .compactMap(random.pick(closures.partialTransforms))
        case 10, 11: return .removeDuplicates
        case 12, 13: return .scan(random.pick(closures.accumulations))
        // prefix(0) and empty ranges are left out: whether Combine's Output finishes them as it
        // subscribes or at the first value is not documented.
        case 14...16: return .prefix(random.int(in: 1...4))
        case 17, 18: return .dropFirst(random.int(in: 0...3))
        case 19, 20: return .dropWhile(random.pick(closures.dropPredicates))
        case 21, 22: return .prefixWhile(random.pick(closures.predicates))
        case 23:
            let lower = random.int(in: 0...3)
            return .output(lower..<(lower + random.int(in: 1...3)))
        case 24: return .outputAt(random.int(in: 0...3))
        case 25...27: return .collect(random.int(in: 1...3))
        case 28: return random.chance(50) ? .firstWhere(random.pick(closures.predicates)) : .first
        case 29: return random.chance(50) ? .last : .lastWhere(random.pick(closures.predicates))
        case 30: return .reduce(random.pick(closures.accumulations))
        case 31: return .count
        case 32: return random.chance(50) ? .min : .max
        case 33: return .allSatisfy(random.pick(closures.predicates))
        case 34:
            return random.chance(50)
                ? .contains(random.int(in: 0...6)) : .containsWhere(random.pick(closures.predicates))
        case 35: return .collectAll
        case 36: return .ignoreOutput
        case 37: return .map(random.pick(closures.transforms))
        default: return .replaceEmpty(random.int(in: 40...49))
        }
    }

    /// Whether every `replaceEmpty` in `operators` has unlimited demand from downstream from the start.
    ///
    /// Combine's `replaceEmpty` requests unlimited from upstream as it subscribes, whatever downstream
    /// asks for, and what it then does with values downstream has not asked for is not documented;
    /// Streams passes demand through instead. The two agree when downstream demand is unlimited from
    /// the start: the subscriber asks for unlimited, or a later reduce-like operator or
    /// `ignoreOutput` does (every operator between passes unlimited demand on as unlimited).
    static func replacementsAreUnambiguous(_ operators: [ChainOperator], initialDemand: ModelDemand) -> Bool {
        if initialDemand == .unlimited { return true }
        var unlimitedBelow = false
        for op in operators.reversed() {
            switch op.shape {
            case .replaceEmpty: if !unlimitedBelow { return false }
            case .reduceLike, .ignoreOutput: unlimitedBelow = true
            default: break
            }
        }
        return true
    }
}
