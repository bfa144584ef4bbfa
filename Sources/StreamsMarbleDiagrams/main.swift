// Draws the marble diagrams of the operator reference pages from real runs on a test scheduler, and
// writes them, with the pages that show them, into the documentation catalog.
//
//     swift run StreamsMarbleDiagrams [--check] [catalog]
//
// The catalog is Docs/Streams.docc by default. With --check nothing is written: the run fails if a
// committed file differs from what the operators draw now, or is missing, or is left over.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let checking = arguments.contains("--check")
let catalog = arguments.first { !$0.hasPrefix("--") } ?? "Docs/Streams.docc"

// The timelines name the thread their runs happen on: the same name on every machine.
Thread.current.name = "main"

let started = ContinuousClock.now
let scenarios =
    transformingScenarios + filteringScenarios + combiningScenarios + errorScenarios
    + timingScenarios + sharingScenarios
let files = DiagramFiles(
    scenarios: scenarios, timelines: DebuggingTimelines.pictures, texts: DebuggingTimelines.texts)
let elapsed = ContinuousClock.now - started
let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
let summary =
    "\(scenarios.count) diagrams and \(DebuggingTimelines.pictures.count) timelines (\(files.pictureCount) SVG files) on \(files.pageCount) reference pages, drawn in \(String(format: "%.0f", milliseconds)) ms"

do {
    if checking {
        let problems = try files.differences(in: catalog)
        if !problems.isEmpty {
            for problem in problems { print(problem) }
            print(
                "The committed marble diagrams are out of date: run Scripts/draw-marble-diagrams.sh and commit the result."
            )
            exit(1)
        }
        print("Marble diagrams up to date: \(summary).")
    } else {
        let written = try files.write(into: catalog)
        print("Marble diagrams: \(summary); \(written) file\(written == 1 ? "" : "s") changed.")
    }
} catch {
    print("Could not \(checking ? "check" : "write") the marble diagrams in \(catalog): \(error)")
    exit(1)
}
