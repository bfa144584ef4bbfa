/// Where a scenario's sinks put what they receive, so every implementation does the same work and
/// the harness can compare checksums. A class, so that closures on other threads can share it; the
/// scenarios only touch it from one thread at a time (a semaphore orders the hand-over).
///
/// The counters live behind a pointer rather than in stored properties: a stored `var` of a class
/// costs a dynamic exclusivity check (swift_beginAccess) on every write from another module, which
/// would add the harness's own overhead to every implementation's numbers.
public final class Tally: @unchecked Sendable {
    // @unchecked: touched by one thread at a time, ordered by the scenario's own synchronisation.
    @usableFromInline
    let counters: UnsafeMutablePointer<Int>

    /// A tally that has received nothing.
    public init() {
        counters = .allocate(capacity: 3)
        counters.initialize(repeating: 0, count: 3)
    }

    deinit {
        counters.deallocate()
    }

    /// The sum of the values passed to `add`.
    public var sum: Int { counters[0] }
    /// How many values were added or chained.
    public var count: Int { counters[1] }
    /// The order-sensitive hash of the values passed to `chain`.
    public var hash: Int { counters[2] }

    /// Adds a value, order-insensitively.
    @inlinable
    public func add(_ value: Int) {
        counters[0] &+= value
        counters[1] &+= 1
    }

    /// Adds a value, order-sensitively.
    @inlinable
    public func chain(_ value: Int) {
        counters[2] = counters[2] &* 31 &+ value
        counters[1] &+= 1
    }

    /// Adds values that were summed and counted elsewhere (by another task, say), as if each had
    /// been passed to `add(_:)`.
    public func add(sum: Int, count: Int) {
        counters[0] &+= sum
        counters[1] &+= count
    }

    /// Forgets everything received, as if new.
    public func reset() {
        counters.update(repeating: 0, count: 3)
    }

    /// One number for everything received.
    public var checksum: Int {
        (sum &* 1_000_003) ^ (hash &* 7_919) &+ count
    }
}

/// Hides a value from the optimizer, so that the floor's stored closures stay stored closures (called
/// through a pointer) instead of being inlined into a loop that no longer does the work.
@inline(never)
public func opaque<T>(_ value: T) -> T {
    value
}

/// The state of scenario 2: ten independent fields.
public struct State10: Equatable, Sendable, TenFields {
    public var f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0

    /// A state with every field 0.
    public init() {}

    /// The number of fields.
    public static let fieldCount = 10

    /// Reading each field, as the closures every observer's `map` uses.
    public static let getters: [@Sendable (State10) -> Int] = [
        { $0.f0 }, { $0.f1 }, { $0.f2 }, { $0.f3 }, { $0.f4 },
        { $0.f5 }, { $0.f6 }, { $0.f7 }, { $0.f8 }, { $0.f9 },
    ]

    /// Each field's key path, for slice-based observation.
    public static let keyPaths: [any WritableKeyPath<State10, Int> & Sendable] = [
        \.f0, \.f1, \.f2, \.f3, \.f4, \.f5, \.f6, \.f7, \.f8, \.f9,
    ]

    /// Writes a field by index.
    @inlinable
    public mutating func set(_ index: Int, to value: Int) {
        switch index {
        case 0: f0 = value
        case 1: f1 = value
        case 2: f2 = value
        case 3: f3 = value
        case 4: f4 = value
        case 5: f5 = value
        case 6: f6 = value
        case 7: f7 = value
        case 8: f8 = value
        default: f9 = value
        }
    }

    /// The field update number `update` changes, and its new value: every update changes exactly one
    /// field, round-robin, to a value it never had.
    @inlinable
    public static func update(_ update: Int) -> (field: Int, value: Int) {
        (update % fieldCount, update + 1)
    }
}

/// The operations of scenario 1's pipeline, shared so that all implementations run the same closures.
public enum PipelineWork {
    /// What the subject is sent for input number `index`: each value twice in a row, so that
    /// `removeDuplicates` has work.
    @inlinable
    public static func input(_ index: Int) -> Int { index >> 1 }

    /// The pipeline's `map`: multiplies by 7, wrapping on overflow.
    @inlinable
    public static func transform(_ value: Int) -> Int { value &* 7 }

    /// The pipeline's `filter`: keeps the values not divisible by 3.
    @inlinable
    public static func isIncluded(_ value: Int) -> Bool { value % 3 != 0 }
}

/// What scenarios 8 send and what their sinks record, shared so that every implementation does the
/// same arithmetic.
public enum CombiningWork {
    /// Scenario 8a: upstreams of the merge; value `index` goes to upstream `index % mergeUpstreams`.
    public static let mergeUpstreams = 8
    /// Scenario 8b: upstreams of combineLatest; value `index` goes to upstream `index % 3`.
    public static let combineLatestUpstreams = 3

    /// One number for a combineLatest tuple, so that the sink records each tuple with one `add`.
    @inlinable
    public static func combine(_ a: Int, _ b: Int, _ c: Int) -> Int {
        a &+ b &* 1_009 &+ c &* 1_018_081
    }

    /// One number for a zip pair, so that the sink records each pair with one `chain`.
    @inlinable
    public static func combine(_ a: Int, _ b: Int) -> Int {
        a &* 1_009 &+ b
    }
}

/// What scenarios 9 write and who is due to hear of it: a model of ten `Int` properties (the fields of
/// `State10`), observer `index` watching property `index % State10.fieldCount`, and write number
/// `write` setting one property to a value it never had (`State10.update`).
public enum ObservationWork {
    /// The property observer `index` watches.
    @inlinable
    public static func field(ofObserver index: Int) -> Int { index % State10.fieldCount }

    /// How many of `observers` observers watch `field`: the observers due when it is written.
    @inlinable
    public static func due(_ field: Int, observers: Int) -> Int {
        observers / State10.fieldCount + (field < observers % State10.fieldCount ? 1 : 0)
    }
}

/// Scenario 10: the asynchronous sequence every implementation consumes.
public enum AsyncSequenceWork {
    /// An `AsyncStream` that already holds `values` values, 0 up, then its end.
    public static func filledStream(values: Int) -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        for value in 0..<values { continuation.yield(value) }
        continuation.finish()
        return stream
    }
}
