import BenchmarkCore
import Observation
import Synchronization

/// Scenario 9a without Combine: the standard library's `Observations` (Observation module, Swift
/// 6.2), one async sequence per observer, each iterated by a task of its own.
extension AsyncAlgorithmsScenarios {
    /// 9a. An `@Observable` model of ten properties; observer `index` iterates
    /// `Observations { model.field(index % 10) }` in a task. Each write waits until every observer
    /// of the written property has received the new value, so the time per write runs from the write
    /// until the last due consumer has it, hand-overs between tasks included.
    ///
    /// The model is isolated to a global actor (a model `Observations` reads on one actor while
    /// another writes it would be a data race); the writes and each sequence's reads run on that
    /// actor, the consuming tasks on the concurrency runtime's threads.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public static func observations(observers: Int, writes: Int, probe: Probe) async -> Int {
        await observationsOnActor(observers: observers, writes: writes, probe: probe)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @ModelActor
    private static func observationsOnActor(observers: Int, writes: Int, probe: Probe) async -> Int {
        let model = TenObservable()
        let arrivals = Arrivals()
        var consumers: [Task<Void, Never>] = []
        consumers.reserveCapacity(observers)
        arrivals.expect(observers)  // each sequence's first value: the property as it is (0)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            let values = Observations { model.field(field) }
            consumers.append(
                Task.detached {
                    for await value in values { arrivals.receive(value) }
                })
        }
        await arrivals.wait()
        arrivals.reset()
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            arrivals.expect(ObservationWork.due(field, observers: observers))
            model.set(field, to: value)
            await arrivals.wait()
        }
        probe.stop()
        for consumer in consumers { consumer.cancel() }
        for consumer in consumers { await consumer.value }
        let tally = Tally()
        let (sum, count) = arrivals.received
        tally.add(sum: sum, count: count)
        return tally.checksum
    }
}

/// The actor scenario 9a's model and its writes are isolated to.
@globalActor
actor ModelActor {
    static let shared = ModelActor()
}

/// Scenario 9a's model: ten observable properties.
@ModelActor
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

    /// Reads one property (and so tracks only that one).
    func field(_ index: Int) -> Int {
        switch index {
        case 0: f0
        case 1: f1
        case 2: f2
        case 3: f3
        case 4: f4
        case 5: f5
        case 6: f6
        case 7: f7
        case 8: f8
        default: f9
        }
    }

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

/// What the consuming tasks received, and the writer's wait for the values it expects.
final class Arrivals: Sendable {
    private struct State {
        var sum = 0
        var count = 0
        /// The count at which the waiting writer resumes.
        var target = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// The writer expects `deliveries` more values.
    func expect(_ deliveries: Int) {
        state.withLock { $0.target = $0.count + deliveries }
    }

    /// Returns once the expected values have all arrived.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state in
                if state.count >= state.target { return true }
                state.waiter = continuation
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// A consuming task received `value`.
    func receive(_ value: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.sum &+= value
            state.count += 1
            guard state.count >= state.target, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Forgets what arrived so far.
    func reset() {
        state.withLock { $0 = State() }
    }

    var received: (sum: Int, count: Int) {
        state.withLock { ($0.sum, $0.count) }
    }
}
