/// What one workload did and what memory did meanwhile, and the verdicts drawn from it.
struct WorkloadResult {
    /// The workload's name.
    let name: String
    /// Seconds it ran, its end (completion, checks, releasing) included.
    let seconds: Double
    /// What its subscribers did and which checks failed.
    let ledger: WorkloadLedger
    /// The memory right before it started, after returning the allocator's free memory to the system.
    let before: MemoryReading
    /// The highest RSS while it ran: the kernel's high-water mark where it can be reset, or else the
    /// highest sample.
    let peakResident: Int?
    /// The memory once it had released everything, after returning the allocator's free memory.
    let after: MemoryReading
    /// What the memory sampler saw while it ran.
    let window: MemorySampler.Window?

    /// Whether its memory kept growing: see ``MemoryPolicy/growth(of:)``.
    var growth: MemoryPolicy.Growth? {
        window.flatMap { MemoryPolicy.growth(of: $0) }
    }

    /// Whether its RSS came back to near where it started: see ``MemoryPolicy/returned(from:to:)``.
    var returned: Bool? {
        guard let before = before.resident, let after = after.resident else { return nil }
        return MemoryPolicy.returned(from: before, to: after)
    }

    /// Whether every check passed and memory did not keep growing.
    var passed: Bool {
        ledger.violationCount == 0 && growth?.kept != true
    }
}

/// How the soak judges memory.
///
/// The resident set size (RSS) is what the system counts against the process, but it does not always
/// shrink when memory is freed: the allocator keeps freed memory for later, in pieces it cannot give
/// back while a live allocation sits among them. So RSS returning to its baseline is reported, with a
/// tolerance, but does not fail the run. What fails it is memory that keeps growing: the peak of a
/// workload's second half well above the peak of its first half. The bytes the heap has in use
/// (allocated and not freed) say that most precisely, so they are compared where the system reports
/// them (glibc's `mallinfo2`), and RSS elsewhere.
enum MemoryPolicy {
    /// A mebibyte.
    static let mebibyte = 1 << 20
    /// RSS counts as back to its baseline within this many bytes ...
    static let returnedSlackBytes = 4 * mebibyte
    /// ... or this fraction of the baseline, whichever is larger.
    static let returnedSlackFraction = 0.10
    /// The second half's peak may exceed the first half's by this many bytes of heap in use ...
    static let heapGrowthSlackBytes = 2 * mebibyte
    /// ... or of RSS, where the heap in use is unknown ...
    static let residentGrowthSlackBytes = 8 * mebibyte
    /// ... or by this fraction of the first half's peak, whichever is larger.
    static let growthSlackFraction = 0.10

    /// The first and second halves' peaks of one measure, and whether the second kept growing.
    struct Growth {
        /// What was compared: "heap in use" or "RSS".
        let measure: String
        /// The first half's peak, in bytes.
        let firstHalf: Int
        /// The second half's peak, in bytes.
        let secondHalf: Int
        /// How much more the second half may peak at, in bytes.
        let slack: Int

        /// Whether the second half peaked above the first by more than the slack.
        var kept: Bool {
            secondHalf > firstHalf + slack
        }
    }

    /// Compares the halves' peaks of heap in use, or of RSS if the heap was not measured; nil if
    /// neither was.
    static func growth(of window: MemorySampler.Window) -> Growth? {
        if window.peakHeap.firstHalf > 0 {
            let first = window.peakHeap.firstHalf
            return Growth(
                measure: "heap in use", firstHalf: first, secondHalf: window.peakHeap.secondHalf,
                slack: max(heapGrowthSlackBytes, Int(Double(first) * growthSlackFraction)))
        }
        guard window.peakResident.firstHalf > 0 else { return nil }
        let first = window.peakResident.firstHalf
        return Growth(
            measure: "RSS", firstHalf: first, secondHalf: window.peakResident.secondHalf,
            slack: max(residentGrowthSlackBytes, Int(Double(first) * growthSlackFraction)))
    }

    /// Whether RSS came back to within the slack of `before`.
    static func returned(from before: Int, to after: Int) -> Bool {
        after <= before + max(returnedSlackBytes, Int(Double(before) * returnedSlackFraction))
    }
}
