import AsyncAlgorithmsScenarios
import BenchmarkCore
import FloorScenarios
import OpenCombineScenarios
import StreamsScenarios

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

let usage = """
    Usage: streams-benchmarks [--quick] [--filter TEXT]... [--impl NAME]... [--rounds N]
                              [--contention-values N] [--chart PATH] [--list]
           streams-benchmarks --threads LIST [--quick] [--filter M1..M4]... [--impl NAME]...
                              [--rounds N] [--cell-timeout SECONDS] [--label TEXT] [--list]

    Runs each scenario in Streams, OpenCombine, swift-async-algorithms (where it has the operator)
    and a hand-written floor, interleaved in one process, and prints medians (min–max) per
    operation, the ratios, and heap allocations per operation.

      --quick         tiny sizes: a smoke test that takes a few seconds
      --filter TEXT   only the scenario with this id (1, 2a, ...) or group (2, 7), or those
                      whose title contains TEXT (repeatable)
      --impl NAME     only these implementations: streams, opencombine, asyncalgorithms, floor
                      (repeatable); checksums are still compared among those that run
      --rounds N      timed rounds per scenario (default 7, 5 for the slowest; 3 with --quick)
      --contention-values N
                      values each sender thread sends in scenarios 7 (default 2,000,000 with
                      one sink, 200,000 with ten; 50,000 and 10,000 with --quick)
      --chart PATH    also write a bar chart (SVG) of the medians to PATH
      --list          list the scenarios and exit

    Scaling mode (see the README's "Scaling mode"):
      --threads LIST  run the scaling scenarios M1-M4 instead, at each thread count in LIST
                      (such as 1,2,4,8,16), each cell (scenario, implementation, thread count) in a
                      process of its own; --filter then takes M1..M4, --rounds defaults to 2
      --cell-timeout SECONDS
                      kill a cell's process after this long and report it as failed (default 120)
      --label TEXT    printed at the top of the report (the commit measured, say)
    Build in release mode: swift run -c release --package-path Benchmarks streams-benchmarks
    """

/// Writes a line to standard error (progress and failures; the report goes to standard output).
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(2)
}

// MARK: - Options

var quick = false
var filters: [String] = []
var selected: [Implementation] = []
var roundsOverride: Int?
var contentionValuesOverride: Int?
var listOnly = false
var chartPath: String?
var threadCounts: [Int]?
var cellTimeoutSeconds = 120.0
var label: String?
var cell: CellSpec?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--quick": quick = true
    case "--list": listOnly = true
    case "--filter":
        guard let text = arguments.next() else { fail("--filter needs a value\n\n" + usage) }
        filters.append(text.lowercased())
    case "--impl":
        guard let name = arguments.next(),
            let implementation = Implementation.allCases.first(where: {
                $0.option == name.lowercased() || $0.rawValue.lowercased() == name.lowercased()
            })
        else {
            fail(
                "--impl needs one of: \(Implementation.allCases.map(\.option).joined(separator: ", "))\n\n" + usage)
        }
        if !selected.contains(implementation) { selected.append(implementation) }
    case "--contention-values":
        guard let text = arguments.next(), let values = Int(text), values > 0 else {
            fail("--contention-values needs a positive number\n\n" + usage)
        }
        contentionValuesOverride = values
    case "--chart":
        guard let path = arguments.next() else { fail("--chart needs a file path\n\n" + usage) }
        chartPath = path
    case "--rounds":
        guard let text = arguments.next(), let rounds = Int(text), rounds > 0 else {
            fail("--rounds needs a positive number\n\n" + usage)
        }
        roundsOverride = rounds
    case "--threads":
        guard let text = arguments.next(), let counts = ScalingOptions.threadCounts(text) else {
            fail(
                "--threads needs thread counts from 1 to \(ContentionRig.maximumThreads), separated by commas\n\n"
                    + usage)
        }
        threadCounts = counts
    case "--cell-timeout":
        guard let text = arguments.next(), let seconds = Double(text), seconds > 0 else {
            fail("--cell-timeout needs a positive number of seconds\n\n" + usage)
        }
        cellTimeoutSeconds = seconds
    case "--label":
        guard let text = arguments.next() else { fail("--label needs a text\n\n" + usage) }
        label = text
    case "--cell":
        // Not in the usage: how the scaling mode runs one cell in a child process.
        guard let text = arguments.next(), let spec = CellSpec(text) else {
            fail("--cell needs SCENARIO:IMPLEMENTATION:THREADS, such as M2:streams:16")
        }
        cell = spec
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown option \(argument)\n\n" + usage)
    }
}
let implementations = selected.isEmpty ? Implementation.allCases : Implementation.allCases.filter(selected.contains)
let sizes = quick ? Sizes.quick : Sizes.full

// MARK: - Scaling mode

if let cell {
    runCell(cell, sizes: quick ? .quick : .full, rounds: roundsOverride ?? ScalingSizes.full.rounds)
}
if let threadCounts {
    let scalingSizes = quick ? ScalingSizes.quick : ScalingSizes.full
    let scenarios = ScalingScenario.allCases.filter { scenario in
        filters.isEmpty
            || filters.contains {
                scenario.id.lowercased() == $0 || scenario.title(scalingSizes).lowercased().contains($0)
            }
    }
    if listOnly {
        for scenario in ScalingScenario.allCases {
            print("\(scenario.id)\t\(scenario.title(scalingSizes)) (per \(scenario.unit))")
        }
        exit(0)
    }
    guard !scenarios.isEmpty else { fail("no scaling scenario matches the filter (M1, M2, M3, M4)") }
    if chartPath != nil || contentionValuesOverride != nil {
        fail("--chart and --contention-values do not apply to the scaling mode (--threads)")
    }
    let scalingImplementations = implementations.filter(CellSpec.isAvailable)
    if selected.contains(.asyncAlgorithms) {
        printError("async-algorithms has no scaling scenarios: left out")
    }
    guard !scalingImplementations.isEmpty else { fail("no implementation has the scaling scenarios") }
    runScalingMode(
        ScalingOptions(
            threadCounts: threadCounts, scenarios: scenarios, implementations: scalingImplementations,
            rounds: roundsOverride ?? scalingSizes.rounds, quick: quick, cellTimeoutSeconds: cellTimeoutSeconds,
            label: label))
}

// MARK: - Scenarios

var scenarios: [Scenario] = []
do {
    let values = sizes.pipelineValues
    scenarios.append(
        Scenario(
            id: "1", title: "Passthrough→map→filter→removeDuplicates→sink, \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.pipeline(values: values, probe: $0) },
                .openCombine: { OpenCombineScenarios.pipeline(values: values, probe: $0) },
                .floor: { FloorScenarios.pipeline(values: values, probe: $0) },
            ],
            runAsync: [.asyncAlgorithms: { await AsyncAlgorithmsScenarios.pipeline(values: values, probe: $0) }]))
}
do {
    let subscribers = sizes.fanOutSubscribers
    let updates = sizes.fanOutUpdates
    scenarios.append(
        Scenario(
            id: "2a", title: "CurrentValueSubject<10 fields>, \(grouped(subscribers)) map+removeDuplicates sinks",
            unit: "update", operations: updates, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.fanOut(subscribers: subscribers, updates: updates, probe: $0) },
                .openCombine: { OpenCombineScenarios.fanOut(subscribers: subscribers, updates: updates, probe: $0) },
                .floor: { FloorScenarios.fanOut(subscribers: subscribers, updates: updates, probe: $0) },
            ]))
}
for (index, observers) in sizes.sliceObservers.enumerated() {
    let updates = sizes.sliceUpdates[index]
    scenarios.append(
        Scenario(
            id: "2\(Character(UnicodeScalar(UInt8(ascii: "b") + UInt8(index))))",
            title: "Store.slice, \(grouped(observers)) observers (OpenCombine: map+removeDuplicates chains)",
            unit: "update", operations: updates, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.slices(observers: observers, updates: updates, probe: $0) },
                .openCombine: { OpenCombineScenarios.slices(observers: observers, updates: updates, probe: $0) },
                .floor: { FloorScenarios.slices(observers: observers, updates: updates, probe: $0) },
            ]))
}
do {
    let pairs = sizes.subscribeCancelPairs
    scenarios.append(
        Scenario(
            id: "3", title: "subscribe map+sink then cancel, \(grouped(pairs)) pairs",
            unit: "pair", operations: pairs, rounds: sizes.heavyRounds,
            run: [
                .streams: { StreamsScenarios.subscribeCancel(pairs: pairs, probe: $0) },
                .openCombine: { OpenCombineScenarios.subscribeCancel(pairs: pairs, probe: $0) },
                .floor: { FloorScenarios.subscribeCancel(pairs: pairs, probe: $0) },
            ]))
}
do {
    let values = sizes.receiveOnValues
    scenarios.append(
        Scenario(
            id: "4", title: "receive(on: serial DispatchQueue), \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.heavyRounds,
            run: [
                .streams: { StreamsScenarios.receiveOn(values: values, probe: $0) },
                .openCombine: { OpenCombineScenarios.receiveOn(values: values, probe: $0) },
                .floor: { FloorScenarios.receiveOn(values: values, probe: $0) },
            ]))
}
do {
    let observers = sizes.publishedObservers
    let writes = sizes.publishedWrites
    scenarios.append(
        Scenario(
            id: "5", title: "ObservableObject, 5 @Published, \(grouped(observers)) objectWillChange sinks",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.published(observers: observers, writes: writes, probe: $0) },
                .openCombine: { OpenCombineScenarios.published(observers: observers, writes: writes, probe: $0) },
                .floor: { FloorScenarios.published(observers: observers, writes: writes, probe: $0) },
            ]))
}
do {
    let count = sizes.storedSubscriptions
    scenarios.append(
        Scenario(
            id: "6a", title: "\(grouped(count)) sinks (one subject each) store(in: Set) then released",
            unit: "subscription", operations: count, rounds: sizes.heavyRounds,
            run: [
                .streams: { StreamsScenarios.storedSubscriptions(count: count, probe: $0) },
                .openCombine: { OpenCombineScenarios.storedSubscriptions(count: count, probe: $0) },
                .floor: { FloorScenarios.storedSubscriptions(count: count, probe: $0) },
            ]))
}
do {
    let subscribers = sizes.oneSubjectSubscribers
    scenarios.append(
        Scenario(
            id: "6b", title: "\(grouped(subscribers)) sinks on one subject, store(in: Set) then released",
            unit: "subscription", operations: subscribers, rounds: sizes.heavyRounds,
            run: [
                .streams: { StreamsScenarios.oneSubject(subscribers: subscribers, probe: $0) },
                .openCombine: { OpenCombineScenarios.oneSubject(subscribers: subscribers, probe: $0) },
                .floor: { FloorScenarios.oneSubject(subscribers: subscribers, probe: $0) },
            ]))
}

for (index, (threads, subscribers)) in [(2, 1), (2, 10), (4, 1), (4, 10)].enumerated() {
    let valuesPerThread =
        contentionValuesOverride
        ?? (subscribers == 1 ? sizes.contentionValuesPerThread : sizes.contentionValuesPerThreadTenSinks)
    let sinks = subscribers == 1 ? "sink" : "sinks"
    scenarios.append(
        Scenario(
            id: "7\(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))))",
            title: "\(threads) threads send into one PassthroughSubject, \(subscribers) \(sinks), "
                + "\(threads) × \(grouped(valuesPerThread)) values",
            unit: "value sent", operations: threads * valuesPerThread, rounds: sizes.heavyRounds,
            run: [
                .streams: {
                    StreamsScenarios.contention(
                        threads: threads, valuesPerThread: valuesPerThread, subscribers: subscribers, probe: $0)
                },
                .openCombine: {
                    OpenCombineScenarios.contention(
                        threads: threads, valuesPerThread: valuesPerThread, subscribers: subscribers, probe: $0)
                },
                .floor: {
                    FloorScenarios.contention(
                        threads: threads, valuesPerThread: valuesPerThread, subscribers: subscribers, probe: $0)
                },
            ]))
}

// Scenarios 8: operators with several upstreams, or several subscribers to one upstream. The
// operations are the values sent (in all, over the subjects).
do {
    let values = sizes.mergeValues
    scenarios.append(
        Scenario(
            id: "8a",
            title: "merge of 8 PassthroughSubjects (OpenCombine: flatMap, it has no merge), \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.merge(values: values, probe: $0) },
                .openCombine: { OpenCombineScenarios.merge(values: values, probe: $0) },
                .floor: { FloorScenarios.merge(values: values, probe: $0) },
            ],
            runAsync: [.asyncAlgorithms: { await AsyncAlgorithmsScenarios.merge(values: values, probe: $0) }]))
}
do {
    let values = sizes.combineLatestValues
    scenarios.append(
        Scenario(
            id: "8b", title: "combineLatest of 3 PassthroughSubjects, \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.rounds,
            // OpenCombine 0.14.0 has no combineLatest.
            run: [
                .streams: { StreamsScenarios.combineLatest(values: values, probe: $0) },
                .floor: { FloorScenarios.combineLatest(values: values, probe: $0) },
            ],
            runAsync: [
                .asyncAlgorithms: { await AsyncAlgorithmsScenarios.combineLatest(values: values, probe: $0) }
            ]))
}
do {
    let values = sizes.zipValues
    scenarios.append(
        Scenario(
            id: "8c", title: "zip of 2 PassthroughSubjects, \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.zip(values: values, probe: $0) },
                .openCombine: { OpenCombineScenarios.zip(values: values, probe: $0) },
                .floor: { FloorScenarios.zip(values: values, probe: $0) },
            ],
            runAsync: [.asyncAlgorithms: { await AsyncAlgorithmsScenarios.zip(values: values, probe: $0) }]))
}
do {
    let subscribers = sizes.shareSubscribers
    let values = sizes.shareValues
    scenarios.append(
        Scenario(
            id: "8d",
            title: "share() of a PassthroughSubject, \(grouped(subscribers)) sinks, \(grouped(values)) values",
            unit: "value", operations: values, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.share(subscribers: subscribers, values: values, probe: $0) },
                .openCombine: { OpenCombineScenarios.share(subscribers: subscribers, values: values, probe: $0) },
                .floor: { FloorScenarios.share(subscribers: subscribers, values: values, probe: $0) },
            ],
            runAsync: [
                .asyncAlgorithms: {
                    await AsyncAlgorithmsScenarios.share(subscribers: subscribers, values: values, probe: $0)
                }
            ]))
}

// Scenarios 9: one model of ten properties, a tenth of the observers watching each, one property
// written per operation; the same writes observed four ways. 9a and 9c notify the same observers
// with the same values, so their checksums must agree too (checked after the run).
do {
    let observers = sizes.observationObservers
    let writes = sizes.observationWrites
    var observations: [Implementation: @Sendable (Probe) async -> Int] = [:]
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        observations[.asyncAlgorithms] = {
            await AsyncAlgorithmsScenarios.observations(observers: observers, writes: writes, probe: $0)
        }
    }
    scenarios.append(
        Scenario(
            id: "9a",
            title: "@Observable, 10 properties, \(grouped(observers)) publisher(for:) observers of one "
                + "(AA: Observations)",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.observationBridge(observers: observers, writes: writes, probe: $0) },
                .floor: { FloorScenarios.propertyObservers(observers: observers, writes: writes, probe: $0) },
            ],
            runAsync: observations))
    scenarios.append(
        Scenario(
            id: "9b", title: "ObservableObject, 10 @Published, \(grouped(observers)) objectWillChange sinks",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.tenPublished(observers: observers, writes: writes, probe: $0) },
                .openCombine: { OpenCombineScenarios.tenPublished(observers: observers, writes: writes, probe: $0) },
                .floor: { FloorScenarios.tenPublished(observers: observers, writes: writes, probe: $0) },
            ]))
    scenarios.append(
        Scenario(
            id: "9c", title: "Store.slice of a 10-field struct, \(grouped(observers)) observers of one field",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.slices(observers: observers, updates: writes, probe: $0) },
                .floor: { FloorScenarios.propertyObservers(observers: observers, writes: writes, probe: $0) },
            ]))
}

// Scenario 10: an asynchronous sequence consumed as a publisher, against the bridge written by hand
// (a subject fed by a task) and against iterating the sequence directly.
do {
    let values = sizes.asyncSequenceValues
    scenarios.append(
        Scenario(
            id: "10",
            title: "AsyncStream of \(grouped(values)) values → publisher → sink (OpenCombine: a subject fed by a task)",
            unit: "value", operations: values, rounds: sizes.rounds, run: [:],
            runAsync: [
                .streams: { await StreamsScenarios.asyncSequence(values: values, probe: $0) },
                .openCombine: { await OpenCombineScenarios.asyncSequence(values: values, probe: $0) },
                .floor: { await FloorScenarios.asyncSequence(values: values, probe: $0) },
            ]))
}

// Scenarios 11: the seeds' store. One app state of ten fields, observers of one field each, one field
// written per operation: observed naively (every observer runs on every write), and through the two
// cures (only the observers whose part changed run). OpenCombine has neither wrapper: its columns
// are the wrappers built from its primitives as the articles build them.
do {
    let observers = sizes.observationObservers
    let writes = sizes.observationWrites
    scenarios.append(
        Scenario(
            id: "11a",
            title: "the naive store: \(grouped(observers)) objectWillChange observers each re-reading its part",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.naiveStore(observers: observers, writes: writes, probe: $0) },
                .openCombine: { OpenCombineScenarios.naiveStore(observers: observers, writes: writes, probe: $0) },
                .floor: { FloorScenarios.naiveStore(observers: observers, writes: writes, probe: $0) },
            ]))
    scenarios.append(
        Scenario(
            id: "11b",
            title: "\(grouped(observers)) Deduplicated observers of the store, a tenth notified per write",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.deduplicatedObservers(observers: observers, writes: writes, probe: $0) },
                .openCombine: {
                    OpenCombineScenarios.deduplicatedObservers(observers: observers, writes: writes, probe: $0)
                },
                .floor: { FloorScenarios.deduplicatedObservers(observers: observers, writes: writes, probe: $0) },
            ]))
    scenarios.append(
        Scenario(
            id: "11c",
            title: "\(grouped(observers)) ObservedPublisher slices (map+removeDuplicates) of a CurrentValueSubject",
            unit: "write", operations: writes, rounds: sizes.rounds,
            run: [
                .streams: { StreamsScenarios.observedPublishers(observers: observers, writes: writes, probe: $0) },
                .openCombine: {
                    OpenCombineScenarios.observedPublishers(observers: observers, writes: writes, probe: $0)
                },
                .floor: { FloorScenarios.observedPublishers(observers: observers, writes: writes, probe: $0) },
            ]))
}

// A filter equal to a scenario id, or to the number of a group of scenarios ("7" for 7a–7d), selects
// by id; any other filter selects by title.
func selects(_ filter: String, id: String) -> Bool {
    let id = id.lowercased()
    return id == filter || String(id.prefix { $0.isNumber }) == filter
}
let chosen = scenarios.filter { scenario in
    filters.isEmpty
        || filters.contains { filter in
            scenarios.contains { selects(filter, id: $0.id) }
                ? selects(filter, id: scenario.id) : scenario.title.lowercased().contains(filter)
        }
}

if listOnly {
    for scenario in scenarios { print("\(scenario.id)\t\(scenario.title) (per \(scenario.unit))") }
    exit(0)
}
guard !chosen.isEmpty else { fail("no scenario matches the filter") }

// MARK: - Run

#if DEBUG
    let configuration = "debug (numbers are meaningless: use -c release)"
#else
    let configuration = "release"
#endif
print("# Streams benchmarks\(quick ? " (--quick: smoke-test sizes, numbers are not meaningful)" : "")")
print("")
print("- date: \(currentDate())")
print("- machine: \(onlineProcessors()) cores (nproc), CPU: \(cpuModel())")
print("- build: \(configuration); load average at start: \(loadAverage())")
print("- implementations: \(implementations.map(\.rawValue).joined(separator: ", ")), interleaved per round")
do {
    let cost = SynchronizationCost.measure(iterations: quick ? 100_000 : 10_000_000)
    print(
        "- synchronization on this machine, uncontended: one lock pass (compare-and-exchange, releasing store) "
            + "\(fixed(cost.lockPass, 2)) ns; one atomic increment and decrement (a retain/release pair) "
            + "\(fixed(cost.incrementDecrement, 2)) ns")
}
if AllocationCounter.isSupported {
    let counted = AllocationCounter.selfCheck(objects: 1_000)
    print(
        "- allocation counting: malloc family replaced in-process, in a separate untimed run; "
            + "self-check: 1,000 new objects counted as \(grouped(Int(counted))) allocations"
            + (counted == 1_000 ? "" : " — THE COUNTER IS OFF, allocation columns are unreliable"))
} else {
    print("- allocation counting: unavailable on this platform (needs glibc)")
}
print("")

var results: [(Scenario, [Implementation: Measurement])] = []
let started = Probe.now()
for scenario in chosen {
    let rounds = roundsOverride ?? scenario.rounds
    do {
        let measured = try measure(scenario, implementations: implementations, rounds: rounds) { step in
            printError("[\(scenario.id)] \(step)")
        }
        results.append((scenario, measured))
    } catch {
        printError("\n\(error)")
        print("\n\(error)")
        print("The implementations disagree: the run fails.")
        exit(1)
    }
}
let elapsedSeconds = Double(Probe.now() - started) / 1e9

// Scenarios that observe the same writes with the same observers must agree with each other too: every
// implementation of 9a (the @Observable model) and of 9c (the store's slices) delivers the written value
// to the observers of the written property, and only to them.
for group in [["9a", "9c"]] {
    let checksums = results.filter { group.contains($0.0.id) }.flatMap { scenario, measured in
        implementations.compactMap { implementation in
            measured[implementation]?.checksum.map { (scenario.id, implementation, $0) }
        }
    }
    guard let first = checksums.first, let other = checksums.first(where: { $0.2 != first.2 }) else { continue }
    let mismatch =
        "CHECKSUM MISMATCH between scenarios \(group.joined(separator: " and ")): "
        + "\(first.0) \(first.1.rawValue)=\(first.2), \(other.0) \(other.1.rawValue)=\(other.2)"
    printError("\n" + mismatch)
    print("\n" + mismatch)
    print("The implementations disagree: the run fails.")
    exit(1)
}

// One time column per implementation that ran, the ratios of Streams to each of the others, and one
// allocation column per implementation. "—": the implementation lacks the scenario.
let others = implementations.contains(.streams) ? implementations.filter { $0 != .streams } : []
let header =
    ["#", "scenario", "per"] + implementations.map { "\($0.rawValue) median (min–max)" }
    + others.map { "Streams/\($0.shortName)" } + implementations.map { "allocs/op \($0.shortName)" }
let rows = results.map { scenario, measured in
    [scenario.id, scenario.title, scenario.unit]
        + implementations.map { formatTimesOrBacklog(measured[$0]) }
        + others.map { formatRatio(measured[.streams], measured[$0]) }
        + implementations.map { formatAllocations(measured[$0]) }
}
printTable(header: header, rightAligned: Set(3..<header.count), rows: rows)
print("")
if let chartPath {
    let chart = barChart(
        results: results, implementations: implementations,
        subtitle: "\(currentDate()), \(onlineProcessors()) cores, \(configuration) build"
            + (quick ? ", --quick (smoke-test sizes, not meaningful)" : ""))
    if writeTextFile(chartPath, chart) {
        printError("chart written to \(chartPath)")
    } else {
        printError("could not write the chart to \(chartPath)")
    }
}

var notes: [String] = []
for (scenario, measured) in results {
    for implementation in implementations {
        if let retained = measured[implementation]?.retainedPerOperation, retained > 0.01 {
            notes.append(
                "- \(scenario.id) \(implementation.rawValue): \(fixed(retained, 2)) allocations per \(scenario.unit) "
                    + "were not freed by the end of the measured stretch")
        }
    }
}
if !notes.isEmpty {
    print("Allocations still live when the measurement stopped (expected only where the scenario keeps state):")
    for note in notes { print(note) }
    print("")
}

// Contention scenarios: memory and backlog next to the time, one row per implementation.
let contentionResults = results.filter { _, measured in
    measured.values.contains { !$0.contention.isEmpty || $0.unboundedBacklog != nil }
}
var violations: [String] = []
if !contentionResults.isEmpty {
    print("Contention (scenarios 7): peak resident memory growth and backlog during each timed run")
    print("")
    var contentionRows: [[String]] = []
    for (scenario, measured) in contentionResults {
        for implementation in implementations {
            guard let measurement = measured[implementation] else { continue }
            contentionRows.append(
                [scenario.id, implementation.rawValue, formatTimesOrBacklog(measurement)]
                    + formatContention(measurement))
            if let worst = measurement.violations.min(by: {
                $0.stats.deliveredWhenSendsReturned < $1.stats.deliveredWhenSendsReturned
            }) {
                violations.append(
                    "- \(scenario.id) \(implementation.rawValue), \(measurement.violations.count) of "
                        + "\(measurement.checkedRuns) runs; worst (\(worst.phase)): \(describeViolation(worst.stats))")
            }
        }
    }
    printTable(
        header: [
            "#", "implementation", "per value sent median (min–max)", "peak RSS growth median (max)",
            "peak heap growth median (max)", "max backlog median (max)", "delivered before send returned",
        ],
        rightAligned: [2, 3, 4, 5], rows: contentionRows)
    print("")
}
if !violations.isEmpty {
    print(
        "DELIVERY CONTRACT BROKEN: in these runs (warm-up and allocation count included), values whose send had "
            + "returned had not all been delivered")
    for violation in violations { print(violation) }
    printError("\nDELIVERY CONTRACT BROKEN:\n" + violations.joined(separator: "\n"))
    print("")
    print("The run fails. Total time \(fixed(elapsedSeconds, 1)) s; load average at end: \(loadAverage()).")
    exit(1)
}
let anyStopped = results.contains { _, measured in measured.values.contains { $0.unboundedBacklog != nil } }
print(
    "Checksums: all implementations agreed in every run"
        + (anyStopped ? " (except runs the memory guard stopped, which are not compared)" : "")
        + ". Total time \(fixed(elapsedSeconds, 1)) s; load average at end: \(loadAverage()).")
