import Streams

/// `Subscribers.Demand` arithmetic written down a second time, from the rules Combine documents, in
/// exact 128-bit integers, for the demand fuzzer to check Streams against.
///
/// The rules: a demand is unlimited or a count from 0 to `Int.max`, and a negative count stops the
/// program. Anything added to unlimited, subtracted from it or multiplying it leaves it unlimited; a
/// sum or product beyond what an `Int` holds is unlimited; a result below zero is `max(0)`, and so is
/// a finite demand less unlimited. Subtracting an `Int` whose difference is beyond what an `Int`
/// holds (a large negative number) gives `max(0)`, as in Combine. A finite product below zero is a
/// negative demand, which stops the program. Unlimited compares above every number.
///
/// Its operations are named functions rather than operators, so that the test target's type checker
/// does not weigh more overloads of `+`, `-` and `*` in every expression.
enum DemandReference: Equatable, CustomStringConvertible {
    case unlimited
    case count(Int128)

    /// What an operation gives: a demand, or a stop of the program.
    enum Outcome: Equatable, CustomStringConvertible {
        case demand(DemandReference)
        case traps

        /// The demand, or `a trap`.
        var description: String {
            switch self {
            case .demand(let demand): demand.description
            case .traps: "a trap"
            }
        }
    }

    /// The reference's reading of a Streams demand.
    init(_ demand: Subscribers.Demand) {
        self = demand.max.map { .count(Int128($0)) } ?? .unlimited
    }

    /// `unlimited` or `max(n)`, as a demand describes itself.
    var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .count(let count): "max(\(count))"
        }
    }

    /// The Streams demand this stands for.
    var demand: Subscribers.Demand {
        switch self {
        case .unlimited: .unlimited
        case .count(let count): .max(Int(count))
        }
    }

    /// The count, unlimited above every `Int`.
    private var ordinal: Int128 {
        switch self {
        case .unlimited: Int128(Int.max) + 1
        case .count(let count): count
        }
    }

    /// A finite result: unlimited above `Int.max`, `max(0)` below zero.
    private static func saturating(_ exact: Int128) -> DemandReference {
        exact > Int128(Int.max) ? .unlimited : .count(Swift.max(exact, 0))
    }

    /// `lhs + rhs`.
    static func sum(_ lhs: Self, _ rhs: Self) -> Self {
        guard case .count(let l) = lhs, case .count(let r) = rhs else { return .unlimited }
        return saturating(l + r)
    }

    /// `lhs - rhs`.
    static func difference(_ lhs: Self, _ rhs: Self) -> Self {
        guard case .count(let l) = lhs else { return .unlimited }
        guard case .count(let r) = rhs else { return .count(0) }
        return saturating(l - r)
    }

    /// `lhs + rhs` for a number `rhs`.
    static func sum(_ lhs: Self, _ rhs: Int) -> Self {
        guard case .count(let l) = lhs else { return .unlimited }
        return saturating(l + Int128(rhs))
    }

    /// `lhs - rhs` for a number `rhs`.
    static func difference(_ lhs: Self, _ rhs: Int) -> Self {
        guard case .count(let l) = lhs else { return .unlimited }
        let exact = l - Int128(rhs)
        return exact > Int128(Int.max) ? .count(0) : saturating(exact)
    }

    /// `lhs * rhs`, or a trap.
    static func product(_ lhs: Self, _ rhs: Int) -> Outcome {
        guard case .count(let l) = lhs else { return .demand(.unlimited) }
        let exact = l * Int128(rhs)
        if exact > Int128(Int.max) || exact < Int128(Int.min) { return .demand(.unlimited) }
        return exact < 0 ? .traps : .demand(.count(exact))
    }

    /// Compares in the order of counts, unlimited last.
    static func compare(_ lhs: Self, _ rhs: Self) -> Int {
        lhs.ordinal < rhs.ordinal ? -1 : lhs.ordinal == rhs.ordinal ? 0 : 1
    }

    /// Compares with a number, unlimited above every one.
    static func compare(_ lhs: Self, _ rhs: Int) -> Int {
        compare(lhs, .count(Int128(rhs)))
    }
}
