import Dispatch
import Streams
import StreamsTesting

// A single source of truth: one store, many observers, each showing its own slice of the state.
// Each observer re-renders a small label whenever it is notified, as a view body would. A store that
// notifies everyone (what subscribing to the whole state, or to an `ObservableObject`, does) makes
// every observer re-render on every update; `Store.slice` notifies only the observers whose slice
// changed. The demo runs both on the same updates, and counts and times the renders.
// `swift run streams-demo [observers] [updates]` changes the sizes.

let demoArguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let observerCount = max(1, demoArguments.first ?? 1_000)
let updateCount = max(1, demoArguments.dropFirst().first ?? 500)

/// The app's state: ten independent counters, one per screen of a pretend app.
struct AppState: Equatable {
    var fields = [Int](repeating: 0, count: ShowcaseState.fieldCount)
}

// Updates set one field each; a third of them write the value the field already has (the same
// updates as the comparison of strategies below).
let storeUpdates = makeShowcaseUpdates(count: updateCount)
var updatesPerField = [Int](repeating: 0, count: ShowcaseState.fieldCount)
var lastValues = [Int](repeating: 0, count: ShowcaseState.fieldCount)
for update in storeUpdates where update.value != lastValues[update.field] {
    updatesPerField[update.field] += 1
    lastValues[update.field] = update.value
}

/// Renders per observer, and the time the updates took, renders included.
func runStore(
    slices: Bool, observers observerCount: Int, updates storeUpdates: [ShowcaseUpdate]
) -> (renders: [Int], nanoseconds: UInt64) {
    let store = Store(AppState())
    let labels = ShowcaseLabels(count: observerCount)
    var cancellables: [AnyCancellable] = []
    for observer in 0..<observerCount {
        let field = labels.fields[observer]
        if slices {
            cancellables.append(store.slice(\.fields[field]).dropFirst().sink { labels.render(observer, $0) })
        } else {
            cancellables.append(store.subject.dropFirst().sink { labels.render(observer, $0.fields[field]) })
        }
    }
    let time = measure {
        for update in storeUpdates {
            store.update { $0.fields[update.field] = update.value }
        }
    }
    return (labels.renders, time)
}

let everyone = runStore(slices: false, observers: observerCount, updates: storeUpdates)
let sliced = runStore(slices: true, observers: observerCount, updates: storeUpdates)

print(
    "Streams demo: one store, \(grouped(observerCount)) observers re-rendering a label when notified, "
        + "\(grouped(updateCount)) updates of one field each")
#if DEBUG
    // `swift run` builds for debugging: the counts are the same, but unoptimized code changes the times
    // and so the ratios of times; the README's figures come from a release build.
    print(
        "(a debug build: render counts are exact, times and speed ratios are not the release figures; "
            + "`swift run -c release streams-demo` for those)")
#endif
print()
print("field      observers  changes  renders per observer   renders per observer")
print("                                with Store.slice    notifying everyone")
for (field, name) in ShowcaseState.fieldNames.enumerated() {
    let observers = Array(stride(from: field, to: observerCount, by: ShowcaseState.fieldCount))
    func perObserver(_ renders: [Int]) -> String {
        let counts = Set(observers.map { renders[$0] })
        return counts.count == 1 ? "\(counts.first!)" : "\(counts.sorted())"
    }
    print(
        name + String(repeating: " ", count: max(0, 10 - name.count)), pad("\(observers.count)", 9),
        pad("\(updatesPerField[field])", 8), pad(perObserver(sliced.renders), 21),
        pad(perObserver(everyone.renders), 22))
}
let slicedRenders = sliced.renders.reduce(0, +)
let everyoneRenders = everyone.renders.reduce(0, +)
print(
    "\nslices: \(grouped(observerCount)) observers, \(grouped(slicedRenders)) renders instead of "
        + "\(grouped(everyoneRenders)); \(ratio(everyoneRenders, slicedRenders, "fewer", "more")), "
        + "\(speed(everyone.nanoseconds, sliced.nanoseconds)) "
        + "(\(milliseconds(sliced.nanoseconds)) against \(milliseconds(everyone.nanoseconds)))")
print(
    "What this shows: with Store.slice an observer re-renders only when its own field changes,"
        + " not on every update of the store.")

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

let sliceField = ShowcaseState.fieldNames.firstIndex(of: "inbox")!
let replayInterval = 250
let replayCheckpoint = 3_000
var updateGenerator = ShowcaseRandom(state: 7)
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

let sliceName = ShowcaseState.fieldNames[sliceField]
let listed = onQueue.values.map(String.init).joined(separator: ", ")
print("\nTesting time without waiting: the \(sliceName) slice, delivered on a queue with receive(on:)")
print(
    "  \(sliceUpdates.count) store updates change the \(sliceName) field \(onQueue.values.count) times."
        + " On a DispatchQueue the observer saw:")
print(
    "    \(listed)   (\(onQueue.allOnQueue ? "every one on the queue" : "NOT every one on the queue"))")
print(
    "  Replayed on a TestScheduler, one update every \(replayInterval) ms of virtual time, it saw"
        + " \(onQueue.values == replayedValues ? "the same values" : "DIFFERENT values"):")
print("    " + replay.seen.map { "\($0.value) at \(seconds($0.milliseconds))" }.joined(separator: ", "))
print(
    "  advance(by: \(seconds(replayCheckpoint))) delivered the first \(replay.seenAtCheckpoint); run() delivered"
        + " the other \(replay.seen.count - replay.seenAtCheckpoint), ending at \(seconds(replay.end)) of virtual time."
)
print(
    "What this shows: a test runs the same pipeline on virtual time, sees the same values at exact"
        + " instants, and ends at once instead of waiting \(seconds(replay.end)).")

// Observation strategies, with the same sizes.
runObservationShowcase(observers: observerCount, updates: updateCount)
