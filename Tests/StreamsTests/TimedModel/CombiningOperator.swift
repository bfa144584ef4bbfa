/// The operator at the root of a combining case, over the subjects `subjects[0]`, `subjects[1]`, ….
/// Tuples (from `zip` and `combineLatest`) are encoded with ``ChainClosures/encode(_:)``.
enum CombiningOperator: Equatable, Sendable, CustomStringConvertible {
    /// `subjects[0].merge(with: subjects[1], …)`: `Merge` to `Merge8`.
    case merge(Int)
    /// `Publishers.MergeMany(subjects)`.
    case mergeMany(Int)
    /// `subjects[0].zip(subjects[1], …)`, two to four.
    case zip(Int)
    /// `subjects[0].combineLatest(subjects[1], …)`, two to four.
    case combineLatest(Int)
    /// `subjects[0].append(subjects[1])`.
    case append
    /// `subjects[0].prepend(subjects[1])`: `subjects[1]` first.
    case prepend
    /// `subjects[0].catch { _ in subjects[1] }`.
    case catchWithSecond
    /// `subjects[0].prefix(untilOutputFrom: subjects[1])`.
    case prefixUntilOutput
    /// `subjects[0].drop(untilOutputFrom: subjects[1])`.
    case dropUntilOutput

    var upstreamCount: Int {
        switch self {
        case .merge(let count), .mergeMany(let count), .zip(let count), .combineLatest(let count): count
        case .append, .prepend, .catchWithSecond, .prefixUntilOutput, .dropUntilOutput: 2
        }
    }

    var description: String {
        let others = (1..<upstreamCount).map { "subjects[\($0)]" }.joined(separator: ", ")
        return switch self {
        case .merge: "subjects[0].merge(with: \(others))"
        case .mergeMany: "Publishers.MergeMany(subjects)"
        case .zip: "subjects[0].zip(\(others)).map(encode)"
        case .combineLatest: "subjects[0].combineLatest(\(others)).map(encode)"
        case .append: "subjects[0].append(subjects[1])"
        case .prepend: "subjects[0].prepend(subjects[1])"
        case .catchWithSecond: "subjects[0].catch { _ in subjects[1] }"
        case .prefixUntilOutput: "subjects[0].prefix(untilOutputFrom: subjects[1])"
        case .dropUntilOutput: "subjects[0].drop(untilOutputFrom: subjects[1])"
        }
    }

    static func random(using random: inout SeededRandom) -> CombiningOperator {
        switch random.int(in: 0...8) {
        case 0: .merge(random.int(in: 2...8))
        case 1: .mergeMany(random.int(in: 1...5))
        case 2: .zip(random.int(in: 2...4))
        case 3: .combineLatest(random.int(in: 2...4))
        case 4: .append
        case 5: .prepend
        case 6: .catchWithSecond
        case 7: .prefixUntilOutput
        default: .dropUntilOutput
        }
    }
}
