import Dispatch
import Streams
import StreamsTesting

// A single source of truth: one store, many observers, each watching its own slice of the state.
// Each observer subscribes through `map` + `removeDuplicates`, so it is notified only when its slice
// changes. A "notify everyone" store (what `ObservableObject` does) would notify every observer on
// every update. The demo counts both.

/// The app's state: ten independent counters, one per screen of a pretend app.
struct AppState: Equatable {
    var fields = [Int](repeating: 0, count: 10)
    static let fieldNames = [
        "profile", "inbox", "settings", "search", "cart", "feed", "friends", "photos", "music", "maps",
    ]
}

/// A small deterministic random number generator, so every run prints the same table.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let observerCount = 100
let updateCount = 1_000
let store = CurrentValueSubject<AppState, Never>(AppState())
var notifications = [Int](repeating: 0, count: observerCount)
var cancellables = Set<AnyCancellable>()

for observer in 0..<observerCount {
    let field = observer % AppState.fieldNames.count
    store
        .map { $0.fields[field] }
        .removeDuplicates()
        .dropFirst()  // the value replayed on subscription is not a change
        .sink { _ in notifications[observer] += 1 }
        .store(in: &cancellables)
}

// Updates touch one field each; a third of them write the value the field already has.
var generator = SplitMix64(state: 2024)
var updatesPerField = [Int](repeating: 0, count: AppState.fieldNames.count)
for _ in 0..<updateCount {
    let field = Int.random(in: 0..<AppState.fieldNames.count, using: &generator)
    let changes = Int.random(in: 0..<3, using: &generator) != 0
    if changes { updatesPerField[field] += 1 }
    store.value.fields[field] += changes ? 1 : 0
}

func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

print("Streams demo: one store, \(observerCount) observers, \(updateCount) updates of one field each\n")
print("field      observers  changes  notifications per observer  notify-everyone per observer")
for (field, name) in AppState.fieldNames.enumerated() {
    let observers = stride(from: field, to: observerCount, by: AppState.fieldNames.count).map { $0 }
    let received = Set(observers.map { notifications[$0] })
    let perObserver = received.count == 1 ? "\(received.first!)" : "\(received.sorted())"
    print(
        name + String(repeating: " ", count: 10 - name.count), pad("\(observers.count)", 9),
        pad("\(updatesPerField[field])", 8), pad(perObserver, 27), pad("\(updateCount)", 29))
}
let total = notifications.reduce(0, +)
let everyone = observerCount * updateCount
print("\nnotifications delivered: \(total) with slices, \(everyone) with notify-everyone")
print("redundant notifications avoided: \(everyone - total)")

// On a scheduler: an observer usually wants its slice on a particular queue (the main queue for UI).
// `receive(on:)` hops each delivery onto a scheduler. The same updates then run again on StreamsTesting's
// `TestScheduler`, where time is virtual: the observer sees the same values, at exact instants, and
// nothing waits for a real clock.

/// One store update: a field set to a value.
struct Update {
    let field: Int
    let value: Int
}

/// A fresh store and an observer of one field that receives its changes on `scheduler`.
func observeSlice<S: Scheduler>(
    _ field: Int, on scheduler: S, _ receiveValue: @escaping (Int) -> Void
) -> (CurrentValueSubject<AppState, Never>, AnyCancellable) {
    let store = CurrentValueSubject<AppState, Never>(AppState())
    let slice = store.map { $0.fields[field] }.removeDuplicates().dropFirst()
    let cancellable = slice.receive(on: scheduler).sink(receiveValue: receiveValue)
    return (store, cancellable)
}

/// What the observer saw on a dispatch queue, and whether every delivery ran on that queue.
func deliverOnDispatchQueue(_ updates: [Update], field: Int) -> (values: [Int], allOnQueue: Bool) {
    final class Seen {
        var values: [Int] = []
        var allOnQueue = true
    }
    let queue = DispatchQueue(label: "streams-demo.slice")
    let onQueue = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: onQueue, value: true)
    let seen = Seen()  // touched only on `queue`
    let (store, cancellable) = observeSlice(field, on: queue) { value in
        seen.values.append(value)
        seen.allOnQueue = seen.allOnQueue && DispatchQueue.getSpecific(key: onQueue) == true
    }
    for update in updates {
        store.value.fields[update.field] = update.value
    }
    // The queue is serial and every delivery was queued before this block: it runs after all of them.
    let result = queue.sync { (seen.values, seen.allOnQueue) }
    cancellable.cancel()
    return result
}

/// What the observer saw on a test scheduler, with the virtual instant of each delivery, when the store
/// gets one update every `interval` milliseconds of virtual time; and how many it had seen once the
/// test advanced the clock to `checkpoint` milliseconds.
func replayOnTestScheduler(_ updates: [Update], field: Int, interval: Int, checkpoint: Int)
    -> (seen: [(value: Int, milliseconds: Int)], seenAtCheckpoint: Int, end: Int)
{
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    func elapsed() -> Int { start.distance(to: scheduler.now).magnitude / 1_000_000 }
    var seen: [(value: Int, milliseconds: Int)] = []
    let (store, cancellable) = observeSlice(field, on: scheduler) { value in
        seen.append((value, elapsed()))
    }
    for (index, update) in updates.enumerated() {
        scheduler.schedule(after: start.advanced(by: .milliseconds(interval * (index + 1)))) {
            store.value.fields[update.field] = update.value
        }
    }
    scheduler.advance(by: .milliseconds(checkpoint))
    let seenAtCheckpoint = seen.count
    scheduler.run()
    cancellable.cancel()
    return (seen, seenAtCheckpoint, elapsed())
}

func seconds(_ milliseconds: Int) -> String {
    let hundredths = milliseconds / 10 % 100
    return "\(milliseconds / 1000).\(hundredths < 10 ? "0" : "")\(hundredths) s"
}

let sliceField = AppState.fieldNames.firstIndex(of: "inbox")!
let replayInterval = 250
let replayCheckpoint = 3_000
var updateGenerator = SplitMix64(state: 7)
let sliceUpdates = (0..<24).map { _ in
    Update(
        field: Int.random(in: 0..<3, using: &updateGenerator),
        value: Int.random(in: 0..<3, using: &updateGenerator))
}
let onQueue = deliverOnDispatchQueue(sliceUpdates, field: sliceField)
let replay = replayOnTestScheduler(
    sliceUpdates, field: sliceField, interval: replayInterval, checkpoint: replayCheckpoint)
let replayedValues = replay.seen.map(\.value)
let indent = String(repeating: " ", count: 18)

print("\nOn a scheduler: \(sliceUpdates.count) updates to profile, inbox and settings, the inbox observed")
print("through receive(on:), first on a DispatchQueue, then replayed on a TestScheduler")
let delivery = onQueue.allOnQueue ? "every one delivered on the queue" : "NOT all delivered on the queue"
print("  DispatchQueue   \(onQueue.values.count) values \(onQueue.values), \(delivery)")
print("  TestScheduler   \(replay.seen.count) values \(replayedValues), one update every \(replayInterval) ms")
print(indent + replay.seen.map { "\($0.value) at \(seconds($0.milliseconds))" }.joined(separator: ", "))
print(indent + "advancing \(seconds(replayCheckpoint)) delivered \(replay.seenAtCheckpoint);", terminator: " ")
print("run() delivered the other \(replay.seen.count - replay.seenAtCheckpoint) and ended at \(seconds(replay.end))")
print("  same values: \(onQueue.values == replayedValues ? "yes" : "NO"); virtual time waited for no clock")

// Observation strategies: `swift run streams-demo [observers] [updates]`.
let showcaseArguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
runObservationShowcase(
    observers: showcaseArguments.first ?? 1_000, updates: showcaseArguments.dropFirst().first ?? 500)
