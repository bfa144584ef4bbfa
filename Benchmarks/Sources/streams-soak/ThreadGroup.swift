import Dispatch
import Foundation

/// Threads started together and joined together: the senders and the churn threads of a workload.
/// Plain threads, not dispatch's pool, so that each one runs for the whole workload whatever the
/// number of processors.
final class ThreadGroup: Sendable {
    private let finished = DispatchGroup()

    /// Starts `count` threads named `name 0`, `name 1`, ..., each running `body` with its index.
    init(count: Int, name: String, body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            finished.enter()
            let thread = Thread { [finished] in
                body(index)
                finished.leave()
            }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    /// Waits until every thread has returned from its body.
    func join() {
        finished.wait()
    }
}
