/// The soak run's command-line options.
struct SoakOptions {
    /// How to use the program.
    static let usage = """
        Usage: streams-soak [--seconds N] [--workload NAME]... [--seed N] [--list]

        Runs Streams' subjects, the Observation bridge, share and flatMap under several threads for a
        fixed time, with subscribers coming and going, checking every delivery as it goes, and
        reports values delivered, subscribers, peak memory and whether memory returned to its
        baseline. Exits with 1 if a check failed or memory kept growing, 2 for a bad option.

          --seconds N      total time of the measured run, shared equally by the workloads
                           (default 60); each workload also runs half a second first, to warm up
          --workload NAME  only this workload (repeatable): see --list
          --seed N         the seed of the random choices (default 1)
          --list           list the workloads and exit
        Build in release mode: Scripts/soak.sh builds and runs it.
        """

    /// Total seconds of the measured run.
    var seconds = 60.0
    /// The workloads to run, by name; empty for all.
    var workloads: [String] = []
    /// The seed of the random choices.
    var seed: UInt64 = 1
    /// Whether to list the workloads and exit.
    var listOnly = false

    /// What went wrong reading the options.
    struct Problem: Error {
        /// The message, followed by the usage when printed.
        let message: String
    }

    /// Reads the options from `arguments` (without the program's name).
    init(arguments: some Sequence<String>) throws(Problem) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--seconds":
                guard let text = iterator.next(), let value = Double(text), value > 0 else {
                    throw Problem(message: "--seconds needs a positive number")
                }
                seconds = value
            case "--workload":
                guard let name = iterator.next() else { throw Problem(message: "--workload needs a name") }
                workloads.append(name)
            case "--seed":
                guard let text = iterator.next(), let value = UInt64(text) else {
                    throw Problem(message: "--seed needs a non-negative integer")
                }
                seed = value
            case "--list":
                listOnly = true
            case "--help", "-h":
                throw Problem(message: "")
            default:
                throw Problem(message: "unknown option \(argument)")
            }
        }
    }
}
