import BenchmarkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A run of this executable in a child process (scaling mode runs each cell so): the lines it wrote to
/// its standard output, how it ended and its peak resident memory. Its standard error is this
/// process's.
struct ChildRun {
    /// How the child ended.
    enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (a crash: a failed precondition is SIGILL or SIGTRAP).
        case signalled(Int32)
        /// It ran past its time limit and was killed.
        case timedOut
    }

    /// The complete lines it wrote to standard output, in order.
    var lines: [String]
    /// How it ended.
    var ending: Ending
    /// Seconds from the start until it ended (or was killed).
    var seconds: Double
    /// Its peak resident set size as the kernel reports it when it is reaped (`ru_maxrss`), in bytes.
    var maximumResidentBytes: Int?

    /// Runs this executable with `arguments`, collects its standard output line by line, and kills
    /// it (SIGKILL) if it has not ended `timeoutSeconds` after it started. `onLine` is called with each
    /// line as it arrives.
    static func run(arguments: [String], timeoutSeconds: Double, onLine: (String) -> Void = { _ in }) -> ChildRun {
        let start = Probe.now()
        let deadline = start + UInt64(timeoutSeconds * 1e9)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { fatalError("pipe failed: \(errno)") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)

        let executable = executablePath()
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return ChildRun(lines: ["spawn-failed errno=\(spawned)"], ending: .exited(127), seconds: 0)
        }

        var lines: [String] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timedOut = false
        while true {
            let now = Probe.now()
            if now >= deadline {
                timedOut = true
                break
            }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = Int32(min((deadline - now) / 1_000_000 + 1, 1_000))
            let ready = poll(&poller, 1, waitMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }  // end of file: the child closed its output (it is ending)
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                onLine(line)
            }
        }
        close(readEnd)

        // Reap it: it has closed its output, so it is ending; wait until the deadline at most.
        var status: Int32 = 0
        var usage = rusage()
        while !timedOut {
            let reaped = wait4(child, &status, WNOHANG, &usage)
            if reaped == child { break }
            if reaped < 0 && errno != EINTR { break }
            if Probe.now() >= deadline {
                timedOut = true
                break
            }
            usleep(1_000)
        }
        if timedOut {
            kill(child, SIGKILL)
            while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        }
        let seconds = Double(Probe.now() - start) / 1e9
        // Linux reports ru_maxrss in kilobytes, Darwin in bytes.
        #if canImport(Darwin)
            let maximumResident = Int(usage.ru_maxrss)
        #else
            let maximumResident = Int(usage.ru_maxrss) * 1024
        #endif
        let ending: Ending
        if timedOut {
            ending = .timedOut
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)
        } else {
            ending = .signalled(status & 0x7f)
        }
        return ChildRun(
            lines: lines, ending: ending, seconds: seconds,
            maximumResidentBytes: maximumResident > 0 ? maximumResident : nil)
    }

    /// The path of this executable: `/proc/self/exe` on Linux (right wherever it was copied to),
    /// otherwise the path it was started with.
    static func executablePath() -> String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #endif
        return CommandLine.arguments[0]
    }
}
