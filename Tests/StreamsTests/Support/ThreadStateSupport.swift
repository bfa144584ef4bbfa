import Foundation

/// Names the calling thread, so that ``waitUntilThreadBlocks(named:)`` can find it.
func nameCurrentThread(_ name: String) {
    Thread.current.name = String(name.prefix(15))
}

/// Waits until the thread of this process named `name` (see ``nameCurrentThread(_:)``) is blocked in
/// the kernel — parked on a lock or a condition — rather than running. Returns false after 10 s.
///
/// Linux reports each thread's state in `/proc/self/task/*/stat`; a test uses this to know that a
/// thread has reached a wait (such as a delivery turn held by another thread) without guessing with a
/// delay. Elsewhere it cannot tell, and returns true at once.
func waitUntilThreadBlocks(named name: String) -> Bool {
    #if os(Linux)
        let deadline = Date().addingTimeInterval(10)
        let shortName = String(name.prefix(15))
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            for task in tasks {
                let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
                guard comm.trimmingCharacters(in: .newlines) == shortName,
                    let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                    let afterName = stat.range(of: ") ")
                else { continue }
                // The state letter follows the parenthesised name: "S" is an interruptible sleep.
                if stat[afterName.upperBound...].first == "S" { return true }
            }
        }
        return false
    #else
        return true
    #endif
}
