import Dispatch
import Observation
import Streams
import Synchronization

// One store, many observers, updates that each touch one field: how many notifications each
// observation strategy delivers, how many of them were for nothing, and how long the run took.

/// The state every strategy observes: ten counters.
struct ShowcaseState: Equatable {
    static let fieldCount = 10
    var fields = [Int](repeating: 0, count: fieldCount)
}

/// The same state as an observable object, the way `ObservableObject` apps keep it.
final class ShowcaseModel: ObservableObject {
    @Published var fields = [Int](repeating: 0, count: ShowcaseState.fieldCount)
}

/// The same state as an `@Observable` model, one property per field, the way Observation apps keep it.
@Observable
final class ShowcaseObservableModel {
    var field0 = 0
    var field1 = 0
    var field2 = 0
    var field3 = 0
    var field4 = 0
    var field5 = 0
    var field6 = 0
    var field7 = 0
    var field8 = 0
    var field9 = 0

    /// Each field's property, by index.
    static let fields: [any ReferenceWritableKeyPath<ShowcaseObservableModel, Int> & Sendable] = [
        \.field0, \.field1, \.field2, \.field3, \.field4, \.field5, \.field6, \.field7, \.field8, \.field9,
    ]
}

/// One update: a field and the value it is set to (sometimes the value it already has).
struct ShowcaseUpdate {
    let field: Int
    let value: Int
}

/// What one strategy did.
struct ShowcaseResult {
    let name: String
    var delivered = 0
    var redundant = 0
    var nanoseconds: UInt64 = 0
}

/// Observers render after each update: a render whose field did not change was a redundant
/// notification.
final class ShowcaseObservers {
    let fields: [Int]
    var lastRendered: [Int]
    var pending: [Int] = []
    var delivered = 0
    var redundant = 0

    init(count: Int) {
        fields = (0..<count).map { $0 % ShowcaseState.fieldCount }
        lastRendered = Array(repeating: 0, count: count)
    }

    func notify(_ observer: Int) {
        delivered += 1
        pending.append(observer)
    }

    func render(reading value: (Int) -> Int) {
        for observer in pending {
            let current = value(fields[observer])
            if current == lastRendered[observer] { redundant += 1 } else { lastRendered[observer] = current }
        }
        pending.removeAll(keepingCapacity: true)
    }
}

func makeShowcaseUpdates(count: Int) -> [ShowcaseUpdate] {
    var generator = ShowcaseRandom(state: 7)
    var values = [Int](repeating: 0, count: ShowcaseState.fieldCount)
    return (0..<count).map { _ in
        let field = Int(generator.next() % UInt64(ShowcaseState.fieldCount))
        if generator.next() % 3 != 0 { values[field] += 1 }
        return ShowcaseUpdate(field: field, value: values[field])
    }
}

/// A small deterministic random number generator, so every run prints the same counts.
struct ShowcaseRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func measure(_ body: () -> Void) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return DispatchTime.now().uptimeNanoseconds - start
}

func runObservableObjectStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let model = ShowcaseModel()
    let observers = ShowcaseObservers(count: count)
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        cancellables.append(model.objectWillChange.sink { observers.notify(observer) })
    }
    let time = measure {
        for update in updates {
            model.fields[update.field] = update.value
            observers.render { model.fields[$0] }
        }
    }
    return ShowcaseResult(
        name: "ObservableObject + @Published", delivered: observers.delivered, redundant: observers.redundant,
        nanoseconds: time)
}

func runDeduplicatedStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let model = ShowcaseModel()
    let observers = ShowcaseObservers(count: count)
    var wrappers: [Deduplicated<ShowcaseModel, Int>] = []
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        let field = observers.fields[observer]
        let wrapper = model.deduplicatedSynchronously { $0.fields[field] }
        wrappers.append(wrapper)
        cancellables.append(wrapper.objectWillChange.sink { observers.notify(observer) })
    }
    let time = measure {
        for update in updates {
            model.fields[update.field] = update.value
            observers.render { model.fields[$0] }
        }
    }
    return ShowcaseResult(
        name: "Deduplicated (synchronous)", delivered: observers.delivered, redundant: observers.redundant,
        nanoseconds: time)
}

func runObservedPublisherStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let store = CurrentValueSubject<ShowcaseState, Never>(ShowcaseState())
    let observers = ShowcaseObservers(count: count)
    var wrappers: [ObservedPublisher<Int>] = []
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        let field = observers.fields[observer]
        let wrapper = ObservedPublisher(publisher: store.map { $0.fields[field] }.removeDuplicates(), initial: 0)
        wrappers.append(wrapper)
        cancellables.append(wrapper.projectedValue.dropFirst().sink { _ in observers.notify(observer) })
    }
    let time = measure {
        for update in updates {
            store.value.fields[update.field] = update.value
            observers.render { store.value.fields[$0] }
        }
    }
    return ShowcaseResult(
        name: "ObservedPublisher (map + removeDuplicates)", delivered: observers.delivered,
        redundant: observers.redundant, nanoseconds: time)
}

func runSliceStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let store = Store(ShowcaseState())
    let observers = ShowcaseObservers(count: count)
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        let field = observers.fields[observer]
        cancellables.append(store.slice(\.fields[field]).dropFirst().sink { _ in observers.notify(observer) })
    }
    let time = measure {
        for update in updates {
            store.update { $0.fields[update.field] = update.value }
            observers.render { store.state.fields[$0] }
        }
    }
    return ShowcaseResult(
        name: "Store slices", delivered: observers.delivered, redundant: observers.redundant, nanoseconds: time)
}

func runObservationBridgeStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let model = ShowcaseObservableModel()
    // The publishers deliver on a scheduler after the change is stored; `ShowcaseTurnScheduler` stands in
    // for the main run loop, and `runTurn()` after each update delivers what the update changed.
    let scheduler = ShowcaseTurnScheduler()
    let observers = ShowcaseObservers(count: count)
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        let field = ShowcaseObservableModel.fields[observers.fields[observer]]
        cancellables.append(
            model.publisher(for: field, options: [.new], scheduler: scheduler).sink { _ in observers.notify(observer) })
    }
    let time = measure {
        for update in updates {
            model[keyPath: ShowcaseObservableModel.fields[update.field]] = update.value
            scheduler.runTurn()
            observers.render { model[keyPath: ShowcaseObservableModel.fields[$0]] }
        }
    }
    return ShowcaseResult(
        name: "Observation bridge (publisher(for:))", delivered: observers.delivered, redundant: observers.redundant,
        nanoseconds: time)
}

/// A run loop reduced to one queue of actions: the Observation bridge schedules its deliveries here,
/// and `runTurn()` runs them, as the main run loop's next turn would. (`DispatchQueue.test` works as
/// well, but finding each next action among those pending is a test scheduler's bookkeeping, not the
/// bridge's cost, and `RunLoop.main` would need the demo to spin the run loop.)
final class ShowcaseTurnScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// A queued action. `@unchecked Sendable`: the demo schedules and runs actions on one thread.
    private struct Action: @unchecked Sendable {
        let run: () -> Void
    }

    private let queue = Mutex<[Action]>([])

    var now: SchedulerTimeType { SchedulerTimeType(.now()) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = Action(run: action)
        queue.withLock { $0.append(action) }
    }

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
        preconditionFailure("ShowcaseTurnScheduler does not repeat actions")
    }

    /// Runs the queued actions, and those they queue, until none is left.
    func runTurn() {
        while true {
            let actions = queue.withLock { queue in
                defer { queue = [] }
                return queue
            }
            if actions.isEmpty { return }
            for action in actions { action.run() }
        }
    }
}

/// Runs every strategy on the same updates and prints the comparison.
func runObservationShowcase(observers: Int, updates updateCount: Int) {
    let updates = makeShowcaseUpdates(count: updateCount)
    let results = [
        runObservableObjectStrategy(observers: observers, updates: updates),
        runDeduplicatedStrategy(observers: observers, updates: updates),
        runObservedPublisherStrategy(observers: observers, updates: updates),
        runSliceStrategy(observers: observers, updates: updates),
        runObservationBridgeStrategy(observers: observers, updates: updates),
    ]
    print(
        "\nObservation strategies: \(observers) observers (each watches one of \(ShowcaseState.fieldCount) fields), "
            + "\(updateCount) updates of one field\n")
    let nameWidth = results.map(\.name.count).max() ?? 0
    print(
        pad("strategy", nameWidth, left: true), pad("notifications", 14), pad("redundant", 10), pad("time ms", 9),
        "  time")
    let slowest = results.map(\.nanoseconds).max() ?? 1
    for result in results {
        let milliseconds = Double(result.nanoseconds) / 1_000_000
        let bar = String(repeating: "█", count: max(1, Int(30 * Double(result.nanoseconds) / Double(slowest))))
        print(
            pad(result.name, nameWidth, left: true), pad("\(result.delivered)", 14), pad("\(result.redundant)", 10),
            pad(String(format1(milliseconds)), 9), " ", bar)
    }
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
