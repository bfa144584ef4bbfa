import Foundation

// The soak run's entry point: reads the options, runs the workloads and prints the report (see
// SoakOptions.usage and Scripts/soak.sh).

let options: SoakOptions
do {
    options = try SoakOptions(arguments: CommandLine.arguments.dropFirst())
} catch {
    printError((error.message.isEmpty ? "" : error.message + "\n\n") + SoakOptions.usage)
    exit(error.message.isEmpty ? 0 : 2)
}
if options.listOnly {
    for workload in SoakRun.allWorkloads { print("\(workload.name): \(workload.summary)") }
    exit(0)
}
let names = SoakRun.allWorkloads.map(\.name)
if let unknown = options.workloads.first(where: { !names.contains($0) }) {
    printError("unknown workload \(unknown); one of: \(names.joined(separator: ", "))")
    exit(2)
}

let run = SoakRun(
    workloads: options.workloads.isEmpty
        ? SoakRun.allWorkloads : SoakRun.allWorkloads.filter { options.workloads.contains($0.name) },
    settings: SoakSettings(senders: 4, churners: 2, seed: options.seed),
    seconds: options.seconds)
let report = run.run()
print(report.render())
exit(report.passed ? 0 : 1)
