import Dispatch
import Observation
import Streams
import Synchronization

// One store, many observers, updates that each touch one field: how many notifications each
// observation strategy delivers, how many of them were for nothing, and how long the run took. Each
// notification makes its observer re-render a label, as a view body would, so a redundant
// notification costs what it costs in an app.

/// The state every strategy observes: ten counters.
struct ShowcaseState: Equatable {
    static let fieldCount = 10
    static let fieldNames = [
        "profile", "inbox", "settings", "search", "cart", "feed", "friends", "photos", "music", "maps",
    ]
    var fields = [Int](repeating: 0, count: fieldCount)
}

/// What an observer shows: its field's value formatted into a label, as a view body formats its
/// state into text — a title, a detail line and an accessibility label, measured and truncated to a
/// fixed width. Deterministic, and a few microseconds' work, like a small view's render.
func renderLabel(field: Int, value: Int) -> String {
    let name = ShowcaseState.fieldNames[field]
    let title = name.prefix(1).uppercased() + name.dropFirst()
    let count = value == 1 ? "1 update" : "\(grouped(value)) updates"
    let detail = value.isMultiple(of: 2) ? "up to date" : "new since last visit"
    let accessibility = "\(title), \(count), \(detail)".lowercased()
    return [fit("\(title) · \(count)", width: 20), fit(detail, width: 16), fit(accessibility, width: 48)]
        .joined(separator: " | ")
}

/// Measures a line in characters, as text layout would, and truncates or pads it to `width`.
func fit(_ line: String, width: Int) -> String {
    let length = line.count
    if length > width { return line.prefix(width - 1) + "…" }
    return line + String(repeating: " ", count: width - length)
}

/// The labels the observers show, one per observer, and how often each was rendered.
final class ShowcaseLabels {
    /// The field each observer shows.
    let fields: [Int]
    private(set) var labels: [String]
    private(set) var renders: [Int]
    /// Renders whose label came out the same as before: the notification was for nothing.
    private(set) var redundant = 0

    init(count: Int) {
        fields = (0..<count).map { $0 % ShowcaseState.fieldCount }
        labels = fields.map { renderLabel(field: $0, value: 0) }
        renders = Array(repeating: 0, count: count)
    }

    /// Re-renders an observer's label from the value of its field.
    func render(_ observer: Int, _ value: Int) {
        let label = renderLabel(field: fields[observer], value: value)
        if label == labels[observer] { redundant += 1 } else { labels[observer] = label }
        renders[observer] += 1
    }
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

/// Observers re-render after each update, once per notification they received, reading the new
/// state (an `ObservableObject` notifies before it changes, so a render waits for the update, as a
/// view's does for the next frame). A render whose label came out the same was a redundant
/// notification.
final class ShowcaseObservers {
    let labels: ShowcaseLabels
    var pending: [Int] = []
    var delivered = 0

    var fields: [Int] { labels.fields }
    var redundant: Int { labels.redundant }

    init(count: Int) {
        labels = ShowcaseLabels(count: count)
    }

    func notify(_ observer: Int) {
        delivered += 1
        pending.append(observer)
    }

    func render(reading value: (Int) -> Int) {
        for observer in pending {
            labels.render(observer, value(labels.fields[observer]))
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
        name: "ObservableObject + @Published (objectWillChange)", delivered: observers.delivered,
        redundant: observers.redundant, nanoseconds: time)
}

func runDeduplicatedStrategy(observers count: Int, updates: [ShowcaseUpdate]) -> ShowcaseResult {
    let model = ShowcaseModel()
    let observers = ShowcaseObservers(count: count)
    var wrappers: [Deduplicated<ShowcaseModel, Int>] = []
    var cancellables: [AnyCancellable] = []
    for observer in 0..<count {
        let field = observers.fields[observer]
        let wrapper = model.deduplicated { $0.fields[field] }
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
        name: "Deduplicated (model.deduplicated { })", delivered: observers.delivered, redundant: observers.redundant,
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
        name: "ObservedPublisher over map + removeDuplicates", delivered: observers.delivered,
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
        name: "Store.slice", delivered: observers.delivered, redundant: observers.redundant, nanoseconds: time)
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
    let baseline = runObservableObjectStrategy(observers: observers, updates: updates)
    let cures = [
        runDeduplicatedStrategy(observers: observers, updates: updates),
        runObservedPublisherStrategy(observers: observers, updates: updates),
        runSliceStrategy(observers: observers, updates: updates),
        runObservationBridgeStrategy(observers: observers, updates: updates),
    ]
    let results = [baseline] + cures
    print(
        "\nObservation strategies: \(grouped(observers)) observers (each shows one of \(ShowcaseState.fieldCount) "
            + "fields and re-renders its label when notified), \(grouped(updateCount)) updates of one field\n")
    let nameWidth = results.map(\.name.count).max() ?? 0
    print(
        pad("strategy", nameWidth, left: true), pad("renders", 9), pad("redundant", 10), pad("time ms", 9),
        "  time")
    let slowest = results.map(\.nanoseconds).max() ?? 1
    for result in results {
        let bar = String(repeating: "█", count: max(1, Int(30 * Double(result.nanoseconds) / Double(slowest))))
        print(
            pad(result.name, nameWidth, left: true), pad(grouped(result.delivered), 9),
            pad(grouped(result.redundant), 10), pad(format1(Double(result.nanoseconds) / 1_000_000), 9), " ", bar)
    }
    let fewest = cures.map(\.delivered).min() ?? 0
    let slowestCure = cures.max { $0.nanoseconds < $1.nanoseconds } ?? baseline
    let fastestCure = cures.min { $0.nanoseconds < $1.nanoseconds } ?? baseline
    print(
        "\ncures: \(grouped(fewest)) renders instead of \(grouped(baseline.delivered)) "
            + "(\(ratio(baseline.delivered, fewest, "fewer", "more"))); "
            + "from \(speed(baseline.nanoseconds, slowestCure.nanoseconds)) (\(slowestCure.name)) "
            + "to \(speed(baseline.nanoseconds, fastestCure.nanoseconds)) (\(fastestCure.name)) "
            + "than \(baseline.name)")
    print(
        "What this shows: every cure re-renders an observer only when what it shows changed; they"
            + " differ in what each update costs.")
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// `1234567` as `1,234,567`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

/// How `old` compares to `new`: "10× fewer", or "2× more" when `new` is larger.
func ratio(_ old: Int, _ new: Int, _ smaller: String, _ larger: String) -> String {
    if new == old { return "as many" }
    if new == 0 { return "none" }
    return new < old
        ? "\(format1(Double(old) / Double(new)))× \(smaller)" : "\(format1(Double(new) / Double(old)))× \(larger)"
}

/// How a time compares to a baseline's: "8.0× faster", or "1.2× slower".
func speed(_ baseline: UInt64, _ time: UInt64) -> String {
    let time = max(time, 1)
    let baseline = max(baseline, 1)
    return time <= baseline
        ? "\(format1(Double(baseline) / Double(time)))× faster" : "\(format1(Double(time) / Double(baseline)))× slower"
}

/// Nanoseconds as milliseconds with one decimal: `12.3 ms`.
func milliseconds(_ nanoseconds: UInt64) -> String {
    "\(format1(Double(nanoseconds) / 1_000_000)) ms"
}
