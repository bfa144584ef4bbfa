/// The scaling scenarios (`streams-benchmarks --threads LIST`): the same work at several thread
/// counts, to see how each implementation's throughput grows with the cores. Each runs in a process of
/// its own, one cell (scenario × implementation × thread count) at a time; see the README's *Scaling
/// mode*.
public enum ScalingScenario: String, CaseIterable, Sendable {
    /// M1: each thread its own `PassthroughSubject` → `map` → `filter` → `removeDuplicates` → `sink`;
    /// nothing shared.
    case independentPipelines = "M1"
    /// M2: every thread sends flat out into one `PassthroughSubject` with one `sink`.
    case sharedSubject = "M2"
    /// M3: every thread subscribes `map` + `sink` to one subject and cancels, again and again, while one
    /// more thread sends into that subject.
    case subscribeChurn = "M3"
    /// M4: each thread its own `ObservableObject` with one `@Published` property and its sinks;
    /// nothing shared.
    case independentPublished = "M4"

    /// "M1" to "M4".
    public var id: String { rawValue }

    /// What one operation is.
    public var unit: String {
        switch self {
        case .independentPipelines, .sharedSubject: "value sent"
        case .subscribeChurn: "subscribe+cancel pair"
        case .independentPublished: "write"
        }
    }

    /// What many operations are: "values sent", "subscribe+cancel pairs", "writes".
    public var units: String {
        switch self {
        case .independentPipelines, .sharedSubject: "values sent"
        case .subscribeChurn: "subscribe+cancel pairs"
        case .independentPublished: "writes"
        }
    }

    /// The table's name for operations per second: "values/s", "pairs/s", "writes/s".
    public var rateName: String {
        switch self {
        case .independentPipelines, .sharedSubject: "values/s"
        case .subscribeChurn: "pairs/s"
        case .independentPublished: "writes/s"
        }
    }

    /// Operations each thread performs in one run.
    public func operationsPerThread(_ sizes: ScalingSizes) -> Int {
        switch self {
        case .independentPipelines: sizes.pipelineValuesPerThread
        case .sharedSubject: sizes.sharedValuesPerThread
        case .subscribeChurn: sizes.churnPairsPerThread
        case .independentPublished: sizes.publishedWritesPerThread
        }
    }

    /// One line saying what the scenario does at these sizes.
    public func title(_ sizes: ScalingSizes) -> String {
        let count = operationsPerThread(sizes)
        return switch self {
        case .independentPipelines:
            "each thread its own PassthroughSubject → map → filter → removeDuplicates → sink, "
                + "\(grouped(count)) values per thread (floor: the same work by hand, no locks)"
        case .sharedSubject:
            "T threads send flat out into one PassthroughSubject with one sink, \(grouped(count)) values each "
                + "(floor: one pthread mutex held while calling the stored closure)"
        case .subscribeChurn:
            "T threads each subscribe map+sink to one subject and cancel, \(grouped(count)) times each, while "
                + "one more thread sends into it until they finish (floor: a mutex-guarded token registry)"
        case .independentPublished:
            "each thread its own ObservableObject, one @Published var with \(sizes.publishedSinks) sinks on $value, "
                + "\(grouped(count)) writes per thread (floor: willSet notifying a list of closures)"
        }
    }
}

/// How much work each thread does in the scaling scenarios.
public struct ScalingSizes: Sendable {
    /// M1: values each thread sends through its own pipeline.
    public var pipelineValuesPerThread: Int
    /// M2: values each thread sends into the shared subject.
    public var sharedValuesPerThread: Int
    /// M3: subscribe + cancel pairs each churning thread makes.
    public var churnPairsPerThread: Int
    /// M4: writes each thread makes to its own `@Published` property.
    public var publishedWritesPerThread: Int
    /// M4: sinks on each thread's `$value`.
    public var publishedSinks: Int
    /// Rounds each cell runs (its process reports the median).
    public var rounds: Int

    /// The sizes of a measuring run.
    public static let full = ScalingSizes(
        pipelineValuesPerThread: 2_000_000, sharedValuesPerThread: 500_000, churnPairsPerThread: 200_000,
        publishedWritesPerThread: 500_000, publishedSinks: 10, rounds: 2)

    /// Tiny sizes for a smoke run (`--quick`): the checks still mean something (M2's senders still
    /// overlap), the numbers do not.
    public static let quick = ScalingSizes(
        pipelineValuesPerThread: 20_000, sharedValuesPerThread: 20_000, churnPairsPerThread: 2_000,
        publishedWritesPerThread: 5_000, publishedSinks: 10, rounds: 2)
}

/// What one run of a scaling scenario measured and found.
public struct ScalingOutcome: Sendable {
    /// From the moment the threads were let go until the last one finished its timed work.
    public var nanoseconds: UInt64
    /// Operations of all threads together.
    public var operations: Int
    /// What the checks found wrong; empty when every check passed.
    public var problems: [String]
    /// M3: values the sender thread sent while the others churned.
    public var senderValues: Int?
    /// M3: from the moment the threads were let go until the sender stopped.
    public var senderNanoseconds: UInt64?

    /// An outcome; M3 adds the sender's count and time.
    public init(
        nanoseconds: UInt64, operations: Int, problems: [String], senderValues: Int? = nil,
        senderNanoseconds: UInt64? = nil
    ) {
        self.nanoseconds = nanoseconds
        self.operations = operations
        self.problems = problems
        self.senderValues = senderValues
        self.senderNanoseconds = senderNanoseconds
    }

    /// Operations per second, all threads together.
    public var operationsPerSecond: Double {
        nanoseconds > 0 ? Double(operations) * 1e9 / Double(nanoseconds) : 0
    }
}

// MARK: - Independent threads (M1, M4)

/// One thread's part of a scaling scenario in which nothing is shared: the timed work, and the check
/// of what it produced (run after the timing, on the same thread).
public struct ThreadWork {
    /// The timed work.
    public let run: () -> Void
    /// Describes what went wrong, if anything; called after `run` returned.
    public let check: () -> [String]

    /// Work and its check.
    public init(run: @escaping () -> Void, check: @escaping () -> [String]) {
        self.run = run
        self.check = check
    }
}

/// The rig of the scaling scenarios whose threads share nothing (M1 and M4).
public enum IndependentThreads {
    /// Starts `threads` threads; each calls `prepare` with its number (so that what it builds is
    /// allocated by the thread that uses it), waits until all are prepared, runs its work, notes the
    /// time, and checks its results. Timed from the moment they are let go until the last one finished.
    public static func run(
        threads: Int, operationsPerThread: Int, prepare: @escaping (Int) -> ThreadWork
    ) -> ScalingOutcome {
        let (timing, problems) = ThreadCrew.run(count: threads) { thread, gate in
            let work = prepare(thread)
            gate.arriveAndWait()
            work.run()
            gate.finish(thread)
            return work.check().map { "thread \(thread): \($0)" }
        }
        return ScalingOutcome(
            nanoseconds: timing.nanoseconds, operations: threads * operationsPerThread,
            problems: problems.flatMap { $0 })
    }
}

/// What one thread's sinks received in M1 or M4, on cache lines of its own (so that threads that
/// share nothing share no cache line through it either). Touched by one thread only.
///
/// M1 uses ``chain(_:)`` (count and an order-sensitive hash, compared with
/// ``PipelineWork/expectedOutput(values:)``); M4 uses ``expect(_:)`` (each value must be the one after
/// the previous).
public final class ThreadRecorder: @unchecked Sendable {
    // @unchecked: used by the one thread that made it.
    @usableFromInline
    let counters: UnsafeMutablePointer<Int>

    /// A recorder that has received nothing, whose first ``expect(_:)`` must be `first`.
    public init(first: Int = 0) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128)
        counters = memory.bindMemory(to: Int.self, capacity: 4)
        counters.initialize(repeating: 0, count: 4)
        counters[2] = first
    }

    deinit {
        counters.deinitialize(count: 4)
        UnsafeMutableRawPointer(counters).deallocate()
    }

    /// Values received.
    public var count: Int { counters[0] }
    /// The order-sensitive hash of the values passed to ``chain(_:)`` (as `Tally.chain`).
    public var hash: Int { counters[1] }
    /// The value ``expect(_:)`` expects next.
    public var next: Int { counters[2] }
    /// Values passed to ``expect(_:)`` that were not the one expected.
    public var misses: Int { counters[3] }

    /// Records a value, order-sensitively.
    @inlinable
    public func chain(_ value: Int) {
        counters[1] = counters[1] &* 31 &+ value
        counters[0] &+= 1
    }

    /// Records a value that must be the one after the previous one (or the first one).
    @inlinable
    public func expect(_ value: Int) {
        if value != counters[2] { counters[3] &+= 1 }
        counters[2] = value &+ 1
        counters[0] &+= 1
    }

    /// For a recorder fed with ``expect(_:)``: nil if it received exactly `first...last`, in order;
    /// otherwise what it received instead.
    public func mismatch(expectingUpTo last: Int, from first: Int = 0) -> String? {
        let expected = last - first + 1
        guard misses > 0 || count != expected || next != last + 1 else { return nil }
        return
            "received \(grouped(count)) values (expected \(grouped(expected)), \(first) to \(grouped(last)) in order), "
            + "\(grouped(misses)) not the one after the previous, the last \(grouped(next - 1))"
    }
}

extension PipelineWork {
    /// What scenario 1's (and M1's) pipeline delivers for `values` inputs: how many values and the
    /// order-sensitive hash ``ThreadRecorder/chain(_:)`` makes of them, computed without a pipeline.
    public static func expectedOutput(values: Int) -> (count: Int, hash: Int) {
        var count = 0
        var hash = 0
        var last: Int?
        for index in 0..<values {
            let value = transform(input(index))
            guard isIncluded(value), value != last else { continue }
            last = value
            hash = hash &* 31 &+ value
            count += 1
        }
        return (count, hash)
    }

    /// For a recorder fed by `values` inputs' pipeline: nil if it received what the pipeline should
    /// deliver; otherwise what it received instead.
    public static func mismatch(_ recorder: ThreadRecorder, values: Int) -> String? {
        let expected = expectedOutput(values: values)
        guard recorder.count != expected.count || recorder.hash != expected.hash else { return nil }
        return "the sink received \(grouped(recorder.count)) values (hash \(recorder.hash)), "
            + "expected \(grouped(expected.count)) (hash \(expected.hash))"
    }
}

// MARK: - One shared subject (M2)

extension ContentionRig {
    /// M2: runs the rig (built with `watchesMemory: false`, so that the process's peak resident size is
    /// left alone) and turns what it observed into an outcome. The checks: every value arrived exactly
    /// once, each sender's values in its order, and each sender's own values had all arrived when its
    /// last `send` returned.
    public func runScaling(send: @escaping (Int) -> Void) -> ScalingOutcome {
        let probe = Probe()
        _ = run(probe: probe, send: send)
        var problems: [String] = []
        if let stats = probe.contention {
            if !stats.deliveredBeforeSendReturned {
                var problem =
                    "when their senders' last send returned, \(grouped(stats.deliveredWhenSendsReturned)) of "
                    + "\(grouped(stats.expected)) deliveries had arrived; at the join \(grouped(stats.deliveredAtJoin))"
                if let late = stats.lateByNanoseconds {
                    problem += "; the rest arrived \(Double(late / 100_000) / 10) ms after the last send returned"
                } else if stats.missingAfterWait > 0 {
                    problem += "; \(grouped(stats.missingAfterWait)) never arrived (waited 10 s)"
                }
                problems.append(problem)
            }
            if stats.outOfOrder > 0 {
                problems.append(
                    "\(grouped(stats.outOfOrder)) deliveries were not the value after the previous one from their sender "
                        + "(repeated, skipped or out of order)")
            }
        }
        return ScalingOutcome(
            nanoseconds: probe.elapsedNanoseconds, operations: threads * valuesPerThread, problems: problems)
    }
}

/// "1,234,567".
func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = number < 0 ? "-" : ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result += "," }
        result.append(character)
    }
    return result
}
