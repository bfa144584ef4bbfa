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
    /// `subjects[0].map { subjects[1 + $0 % (count - 1)] }.switchToLatest()`.
    case switchToLatest(Int)
    /// `subjects[0].flatMap(maxPublishers:) { subjects[1 + $0 % (count - 1)] }`, at most so many
    /// publishers at once (`nil`: unlimited).
    case flatMap(Int, maxPublishers: Int?)
    /// `Deferred { subjects[attempt] }.retry(retries)`: each subscription takes the next subject (the
    /// last one once they run out).
    case retry(Int, retries: Int)
    /// `subjects[0].buffer(size:prefetch:whenFull:)`.
    case buffer(size: Int, keepFull: Bool, whenFull: BufferFullness)
    /// `subjects[0].share()`, which the case's other subscribers subscribe to as well.
    case share
    /// `subjects[0].multicast(subject: PassthroughSubject())`, which the case's other subscribers
    /// subscribe to as well, connected by a ``TimedStep/connect`` step.
    case multicast

    var upstreamCount: Int {
        switch self {
        case .merge(let count), .mergeMany(let count), .zip(let count), .combineLatest(let count): count
        case .append, .prepend, .catchWithSecond, .prefixUntilOutput, .dropUntilOutput: 2
        case .switchToLatest(let count), .flatMap(let count, _), .retry(let count, _): count
        case .buffer, .share, .multicast: 1
        }
    }

    /// Whether the root is a publisher that several subscribers share.
    var isShared: Bool { self == .share || self == .multicast }

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
        case .switchToLatest(let count): "subjects[0].map { subjects[1 + $0 % \(count - 1)] }.switchToLatest()"
        case .flatMap(let count, let maxPublishers):
            "subjects[0].flatMap(maxPublishers: \(maxPublishers.map { ".max(\($0))" } ?? ".unlimited")) "
                + "{ subjects[1 + $0 % \(count - 1)] }"
        case .retry(_, let retries): "Deferred { subjects[attempt] }.retry(\(retries))"
        case .buffer(let size, let keepFull, let whenFull):
            "subjects[0].buffer(size: \(size), prefetch: \(keepFull ? ".keepFull" : ".byRequest"), whenFull: \(whenFull))"
        case .share: "subjects[0].share()"
        case .multicast: "subjects[0].multicast(subject: PassthroughSubject())"
        }
    }

    static func random(using random: inout SeededRandom) -> CombiningOperator {
        switch random.int(in: 0...14) {
        case 0: .merge(random.int(in: 2...8))
        case 1: .mergeMany(random.int(in: 1...5))
        case 2: .zip(random.int(in: 2...4))
        case 3: .combineLatest(random.int(in: 2...4))
        case 4: .append
        case 5: .prepend
        case 6: .catchWithSecond
        case 7: .prefixUntilOutput
        case 8: .dropUntilOutput
        case 9: .switchToLatest(random.int(in: 2...4))
        case 10: .flatMap(random.int(in: 2...4), maxPublishers: random.chance(30) ? nil : random.int(in: 1...3))
        case 11: .retry(random.int(in: 1...4), retries: random.int(in: 0...3))
        case 13: .share
        case 14: .multicast
        default:
            .buffer(
                size: random.int(in: 1...4), keepFull: random.chance(50),
                whenFull: random.pick([.dropNewest, .dropOldest, .fail]))
        }
    }
}
