/// One kind of work the soak runs: publishers under test, threads sending into them, subscribers
/// attached for the whole run (residents, whose exact counts are known) and subscribers that come and
/// go (churn).
protocol Workload: Sendable {
    /// Its name, in the report and for `--workload`.
    var name: String { get }

    /// What it does, in a line, for `--list`.
    var summary: String { get }

    /// Runs for `duration`, checking as it goes; then ends its publishers, checks the residents and the
    /// subscribers still attached, releases everything and checks that it was freed. Failed checks go
    /// to `ledger`.
    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger)
}

/// What every workload of a run shares.
struct SoakSettings: Sendable {
    /// Threads that send into the publishers (or write the models).
    let senders: Int
    /// Threads that make subscribers come and go.
    let churners: Int
    /// The seed of every thread's random choices.
    let seed: UInt64
}

extension WorkloadLedger {
    /// Waits up to five seconds for the objects noted in `objects` to be freed, then for every checked
    /// subscriber, and records a violation for what was kept.
    func expectFreed(_ objects: ReleaseRing, _ workload: String) {
        if !waitUntil(seconds: 5, { objects.aliveCount == 0 }) {
            violation(
                "\(workload): \(objects.firstAlive ?? "an object") was never freed after the workload released it")
        }
        expectAllFreed(within: 5, workload)
    }
}
