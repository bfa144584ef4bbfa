import Streams

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

// Observation strategies: `swift run streams-demo [observers] [updates]`.
let showcaseArguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
runObservationShowcase(
    observers: showcaseArguments.first ?? 1_000, updates: showcaseArguments.dropFirst().first ?? 500)
