import Dispatch
import Foundation
import Synchronization

/// Says once, on standard error, that values of the Observation bridge are waiting for the main
/// thread and nothing serves it, instead of letting a program wait silently.
///
/// The bridge's default scheduler is `DispatchQueue.main`, which is served in most places a program
/// runs (an app's run loop, `dispatchMain()`, top-level `await`, an `async` test while it awaits),
/// but not while the main thread is blocked or has returned from `main` without serving it. The
/// watch counts deliveries made through a main-thread scheduler; when one is scheduled it arms one
/// check, `patience` later, and if no delivery has run by then although one was waiting, it reports
/// once for the whole process. So a delivery costs an atomic increment, and a watch at most one
/// check every `patience`.
final class StalledDeliveryWatch: Sendable {
    /// The watch of the process, for `DispatchQueue.main` and `RunLoop.main`.
    static let shared = StalledDeliveryWatch(
        patience: .seconds(3),
        after: { delay, check in DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: check) },
        report: { FileHandle.standardError.write(Data("\($0)\n".utf8)) })

    private let patience: DispatchTimeInterval
    private let after: @Sendable (DispatchTimeInterval, @escaping @Sendable () -> Void) -> Void
    private let report: @Sendable (String) -> Void
    private let scheduled = Atomic(0)
    private let delivered = Atomic(0)
    private let armed = Atomic(false)
    private let reported = Atomic(false)

    /// Creates a watch that checks `patience` after a delivery is scheduled, by asking `after` to run
    /// the check, and hands its message to `report`.
    init(
        patience: DispatchTimeInterval,
        after: @escaping @Sendable (DispatchTimeInterval, @escaping @Sendable () -> Void) -> Void,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.patience = patience
        self.after = after
        self.report = report
    }

    /// Schedules `action` with `schedule`, a main-thread scheduler's, and watches that it runs.
    func schedule(_ action: @escaping () -> Void, with schedule: (@escaping () -> Void) -> Void, on name: String) {
        scheduled.add(1, ordering: .relaxed)
        schedule {
            self.delivered.add(1, ordering: .relaxed)
            action()
        }
        guard !reported.load(ordering: .relaxed),
            armed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let deliveredBefore = delivered.load(ordering: .relaxed)
        after(patience) { self.check(deliveredBefore: deliveredBefore, on: name) }
    }

    /// Reports once if deliveries were waiting all along and none ran since the check was armed.
    private func check(deliveredBefore: Int, on name: String) {
        armed.store(false, ordering: .releasing)
        let waiting = scheduled.load(ordering: .relaxed) > delivered.load(ordering: .relaxed)
        guard waiting, delivered.load(ordering: .relaxed) == deliveredBefore,
            reported.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        report(
            "Streams: a value of publisher(for:) or ObservationPublisher has waited \(Self.describe(patience)) for \(name), "
                + "and nothing serves the main thread (it is blocked, or the program's main code has returned without "
                + "serving it). Let the main thread serve it (dispatchMain(), RunLoop.main.run(), top-level await, an "
                + "async test that awaits), or pass another scheduler (in tests, a test scheduler). This is said once.")
    }

    private static func describe(_ interval: DispatchTimeInterval) -> String {
        switch interval {
        case .seconds(let seconds): "\(seconds) s"
        case .milliseconds(let milliseconds): "\(milliseconds) ms"
        default: "a while"
        }
    }

    /// The schedule function of `scheduler`, watched when it delivers on the main thread.
    static func schedule<S: Scheduler>(on scheduler: S) -> (@escaping () -> Void) -> Void {
        let plain: (@escaping () -> Void) -> Void = { scheduler.schedule($0) }
        let name: String
        if let queue = scheduler as? DispatchQueue, queue === DispatchQueue.main {
            name = "DispatchQueue.main"
        } else if let loop = scheduler as? RunLoop, loop === RunLoop.main {
            name = "RunLoop.main"
        } else {
            return plain
        }
        return { action in shared.schedule(action, with: plain, on: name) }
    }
}
