import BenchmarkCore
import Dispatch
import Observation
import Streams
import Synchronization

extension StreamsScenarios {
    /// 9a. An `@Observable` model of ten properties; observer `index` is a `sink` on
    /// `model.publisher(for:scheduler:)` of property `index % 10`. The publishers deliver on a
    /// `TurnScheduler`, which the writer drains after each write as a run loop runs its next turn, so
    /// the time per write includes delivering the new value to every due observer.
    public static func observationBridge(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenObservable()
        let scheduler = TurnScheduler()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(observers)
        for index in 0..<observers {
            model.publisher(for: TenObservable.keyPaths[ObservationWork.field(ofObserver: index)], scheduler: scheduler)
                .sink { tally.add($0) }
                .store(in: &cancellables)
        }
        scheduler.drain()  // the initial values
        tally.reset()
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            model.set(field, to: value)
            scheduler.drain()
        }
        probe.stop()
        cancellables.removeAll()
        scheduler.drain()
        return tally.checksum
    }
}

/// Scenario 9a's model: ten observable properties.
@Observable
final class TenObservable {
    var f0 = 0
    var f1 = 0
    var f2 = 0
    var f3 = 0
    var f4 = 0
    var f5 = 0
    var f6 = 0
    var f7 = 0
    var f8 = 0
    var f9 = 0

    /// Each property's key path, by index.
    static let keyPaths: [any KeyPath<TenObservable, Int> & Sendable] = [
        \.f0, \.f1, \.f2, \.f3, \.f4, \.f5, \.f6, \.f7, \.f8, \.f9,
    ]

    func set(_ field: Int, to value: Int) {
        switch field {
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
}

/// A run loop reduced to what scenario 9a needs: `schedule` queues an action, `drain()` runs the
/// queued actions in order, as one turn of a run loop would (actions they schedule run in the same
/// drain). One lock pass per action, as a real run loop or queue pays for its own thread safety;
/// none of a test scheduler's bookkeeping (virtual time, ordering by due date).
final class TurnScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// An action as the queue keeps it. `@unchecked Sendable`: actions are queued and run on the
    /// scenario's one thread; the lock only keeps the queue itself consistent.
    private struct Action: @unchecked Sendable {
        let run: () -> Void
    }

    /// The queued actions, and an empty array whose storage the next turn reuses (so that a turn
    /// allocates nothing once the arrays have grown).
    private struct Queue {
        var pending: [Action] = []
        var spare: [Action] = []
    }

    private let queue = Mutex(Queue())

    var now: SchedulerTimeType { SchedulerTimeType(.now()) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = Action(run: action)
        queue.withLock { $0.pending.append(action) }
    }

    /// Delayed actions run at the next drain, whatever their date: the bridge schedules none.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        schedule(options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        preconditionFailure("TurnScheduler does not repeat actions: the Observation bridge never asks it to")
    }

    /// Runs every queued action, and those they queue, until the queue is empty.
    func drain() {
        while true {
            var actions = queue.withLock { queue in
                var taken: [Action] = []
                swap(&taken, &queue.spare)
                swap(&taken, &queue.pending)
                return taken
            }
            let ran = !actions.isEmpty
            for action in actions { action.run() }
            actions.removeAll(keepingCapacity: true)
            queue.withLock { [actions] in $0.spare = actions }
            if !ran { return }
        }
    }
}
