import Dispatch
import Observation
import Synchronization
import Testing

@testable import Streams

/// Where nothing serves the main thread, the Observation bridge's default scheduler (the main queue)
/// cannot deliver, and the bridge says so once instead of waiting silently. (Whether the main queue
/// is served depends on the whole process, so where it delivers is measured in separate programs,
/// not in this parallel test run.)
@Suite struct ObservationDefaultSchedulerTests {
    // MARK: The watch

    /// A watch whose check runs when the test says, and whose reports the test reads.
    final class ManualWatch: Sendable {
        let checks = Mutex<[@Sendable () -> Void]>([])
        let reports = Mutex<[String]>([])
        var watch: StalledDeliveryWatch {
            StalledDeliveryWatch(
                patience: .seconds(3), after: { _, check in self.checks.withLock { $0.append(check) } },
                report: { message in self.reports.withLock { $0.append(message) } })
        }

        func runChecks() {
            let due = checks.withLock { checks in
                defer { checks = [] }
                return checks
            }
            for check in due { check() }
        }
    }

    @Test func reportsOnceWhenAScheduledDeliveryNeverRuns() {
        let manual = ManualWatch()
        let watch = manual.watch
        var pending: [() -> Void] = []
        watch.schedule({}, with: { pending.append($0) }, on: "DispatchQueue.main")
        watch.schedule({}, with: { pending.append($0) }, on: "DispatchQueue.main")
        #expect(manual.checks.withLock { $0.count } == 1, "one check is armed at a time")
        manual.runChecks()
        let reports = manual.reports.withLock { $0 }
        #expect(reports.count == 1)
        #expect(reports.first?.contains("has waited 3 s for DispatchQueue.main") == true)
        #expect(reports.first?.contains("This is said once.") == true)
        watch.schedule({}, with: { pending.append($0) }, on: "DispatchQueue.main")
        manual.runChecks()
        #expect(manual.reports.withLock { $0.count } == 1, "said once for the whole process")
        #expect(pending.count == 3)
    }

    @Test func saysNothingWhenDeliveriesRun() {
        let manual = ManualWatch()
        let watch = manual.watch
        var ran = 0
        watch.schedule({ ran += 1 }, with: { $0() }, on: "DispatchQueue.main")
        manual.runChecks()
        var pending: [() -> Void] = []
        watch.schedule({ ran += 1 }, with: { pending.append($0) }, on: "DispatchQueue.main")
        for delivery in pending { delivery() }
        manual.runChecks()
        #expect(ran == 2)
        #expect(manual.reports.withLock { $0 }.isEmpty)
    }

    @Test func onlyMainThreadSchedulersAreWatched() {
        var ran = false
        let schedule = StalledDeliveryWatch.schedule(on: ImmediateScheduler.shared)
        schedule { ran = true }
        #expect(ran)
    }
}
