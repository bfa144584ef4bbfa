import Foundation
import Streams
import Testing

/// `Subscribers.Demand` arithmetic and comparisons at their limits, checked against
/// ``DemandReference``: random demands and numbers drawn mostly from the edges (`0`, `1`, `Int.max`,
/// `Int.min`, halves of `Int.max`, unlimited), every operator, compound assignment, comparison and
/// the `Codable` round trip. The operations that stop the program are pinned by exit tests.
///
/// Seeded: a failure prints the seed and the case. To replay it, set `STREAMS_MODEL_SEED` to the
/// seed and `STREAMS_MODEL_CASE` to the case; `STREAMS_MODEL_CASES` changes how many cases the test
/// plays.
@Suite(.timeLimit(.minutes(1))) struct DemandArithmeticFuzzTests {
    typealias Demand = Subscribers.Demand

    static let defaultSeed: UInt64 = 0xDE4A_4D00
    static let defaultCaseCount = 3_000

    /// Every operation on random operands gives what the reference gives.
    @Test func arithmeticAndComparisonsFollowTheDocumentedRules() throws {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: index)
            let lhs = Self.demand(using: &random)
            let rhs = Self.demand(using: &random)
            let number = Self.number(using: &random)
            let mismatches = try Self.mismatches(lhs, rhs, number)
            #expect(
                mismatches.isEmpty,
                """
                Demand arithmetic differs from the documented rules in case \(index): lhs \(lhs), rhs \(rhs), \
                number \(number). Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) \
                swift test --filter DemandArithmeticFuzzTests
                \(mismatches.joined(separator: "\n"))
                """)
            if !mismatches.isEmpty {
                failures += 1
                if failures == 5 { break }
            }
        }
    }

    /// The edges, each against each: every pair of edge demands and every edge number.
    @Test func everyEdgeAgainstEveryEdge() throws {
        var mismatches: [String] = []
        for lhs in Self.edgeDemands {
            for rhs in Self.edgeDemands {
                for number in Self.edgeNumbers {
                    mismatches += try Self.mismatches(lhs, rhs, number).map { "\(lhs), \(rhs), \(number): \($0)" }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// Multiplying by a negative number follows the documented rules wherever the result is not a
    /// negative count: unlimited stays unlimited, zero stays zero, an overflow is unlimited.
    @Test func multiplyingByANegativeNumberTrapsOnlyForANegativeCount() {
        #expect(Demand.unlimited * -1 == .unlimited)
        #expect(Demand.unlimited * Int.min == .unlimited)
        #expect(Demand.none * -5 == .none)
        #expect(Demand.max(Int.max) * -2 == .unlimited)
        #expect(Demand.max(2) * Int.min == .unlimited)
        var demand = Demand.unlimited
        demand *= -3
        #expect(demand == .unlimited)
    }

    /// A finite demand times a negative number would be a negative demand: the program stops,
    /// naming the rule.
    @Test func aNegativeProductIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(3) * (CommandLine.arguments.count - 100)
        }
        expectTrapMessage(trap1, contains: "Subscribers.Demand cannot be negative: max(3) multiplied by -")
    }

    // MARK: - Operands

    /// The demands at the edges of the range.
    static let edgeDemands: [Demand] = [
        .none, .max(1), .max(2), .max(Int.max / 2), .max(Int.max / 2 + 1), .max(Int.max - 1), .max(Int.max), .unlimited,
    ]

    /// The numbers at the edges of `Int`.
    static let edgeNumbers: [Int] = [
        0, 1, -1, 2, -2, Int.max, Int.max - 1, Int.max / 2, Int.max / 2 + 1, Int.min, Int.min + 1, -(Int.max / 2),
    ]

    /// A demand: an edge one, or a random count small or large.
    static func demand(using random: inout SeededRandom) -> Demand {
        switch random.int(in: 0...9) {
        case 0...4: random.pick(edgeDemands)
        case 5...7: .max(random.int(in: 0...1_000))
        default: .max(Int(truncatingIfNeeded: random.next() >> 1))
        }
    }

    /// A number: an edge one, or a random one small or large, of either sign.
    static func number(using random: inout SeededRandom) -> Int {
        switch random.int(in: 0...9) {
        case 0...4: random.pick(edgeNumbers)
        case 5...7: random.int(in: -1_000...1_000)
        default: Int(truncatingIfNeeded: random.next())
        }
    }

    // MARK: - Checking

    /// What Streams gives differently from the reference for `lhs` and `rhs` (demands) and `number`,
    /// one line per operation.
    static func mismatches(_ lhs: Demand, _ rhs: Demand, _ number: Int) throws -> [String] {
        let l = DemandReference(lhs)
        let r = DemandReference(rhs)
        var found: [String] = []
        func check(_ name: String, _ actual: Demand, _ expected: DemandReference) {
            if actual != expected.demand || DemandReference(actual) != expected {
                found.append("\(name): \(actual), expected \(expected)")
            }
        }
        func check(_ name: String, _ actual: Bool, _ expected: Bool) {
            if actual != expected { found.append("\(name): \(actual), expected \(expected)") }
        }

        check("\(lhs) + \(rhs)", lhs + rhs, DemandReference.sum(l, r))
        check("\(lhs) - \(rhs)", lhs - rhs, DemandReference.difference(l, r))
        check("\(lhs) + \(number)", lhs + number, DemandReference.sum(l, number))
        check("\(lhs) - \(number)", lhs - number, DemandReference.difference(l, number))
        var sum = lhs
        sum += rhs
        check("\(lhs) += \(rhs)", sum, DemandReference.sum(l, r))
        var difference = lhs
        difference -= rhs
        check("\(lhs) -= \(rhs)", difference, DemandReference.difference(l, r))
        var numberSum = lhs
        numberSum += number
        check("\(lhs) += \(number)", numberSum, DemandReference.sum(l, number))
        var numberDifference = lhs
        numberDifference -= number
        check("\(lhs) -= \(number)", numberDifference, DemandReference.difference(l, number))
        if case .demand(let product) = DemandReference.product(l, number) {
            check("\(lhs) * \(number)", lhs * number, product)
            var scaled = lhs
            scaled *= number
            check("\(lhs) *= \(number)", scaled, product)
        }

        let order = DemandReference.compare(l, r)
        check("\(lhs) < \(rhs)", lhs < rhs, order < 0)
        check("\(lhs) <= \(rhs)", lhs <= rhs, order <= 0)
        check("\(lhs) > \(rhs)", lhs > rhs, order > 0)
        check("\(lhs) >= \(rhs)", lhs >= rhs, order >= 0)
        check("\(lhs) == \(rhs)", lhs == rhs, order == 0)
        check("\(lhs) != \(rhs)", lhs != rhs, order != 0)
        check("\(lhs) hashes as \(rhs)", lhs.hashValue == rhs.hashValue, order == 0 || lhs.hashValue == rhs.hashValue)

        let numberOrder = DemandReference.compare(l, number)
        check("\(lhs) < \(number)", lhs < number, numberOrder < 0)
        check("\(lhs) <= \(number)", lhs <= number, numberOrder <= 0)
        check("\(lhs) > \(number)", lhs > number, numberOrder > 0)
        check("\(lhs) >= \(number)", lhs >= number, numberOrder >= 0)
        check("\(lhs) == \(number)", lhs == number, numberOrder == 0)
        check("\(lhs) != \(number)", lhs != number, numberOrder != 0)
        check("\(number) < \(lhs)", number < lhs, numberOrder > 0)
        check("\(number) <= \(lhs)", number <= lhs, numberOrder >= 0)
        check("\(number) > \(lhs)", number > lhs, numberOrder < 0)
        check("\(number) >= \(lhs)", number >= lhs, numberOrder <= 0)
        check("\(number) == \(lhs)", number == lhs, numberOrder == 0)
        check("\(number) != \(lhs)", number != lhs, numberOrder != 0)

        if case .count(let count) = l {
            check("\(lhs).max", lhs.max == Int(count), true)
            check("\(lhs).description", lhs.description == "max(\(count))", true)
        } else {
            check("\(lhs).max", lhs.max == nil, true)
            check("\(lhs).description", lhs.description == "unlimited", true)
        }
        let decoded = try JSONDecoder().decode([Demand].self, from: JSONEncoder().encode([lhs, rhs]))
        check("\(lhs), \(rhs) through JSON", decoded == [lhs, rhs], true)
        return found
    }
}
