import Foundation
import Testing

/// The comments of the issues `body` recorded, in order; the running test does not fail for them,
/// and recording none is not a failure either, so callers check how many they expected.
///
/// An `NSLock` guards the comments rather than a `Mutex`, whose hand-over under contention goes
/// through the kernel on Linux, where the thread sanitizer cannot see it.
func recordedIssues(_ body: () -> Void) -> [String] {
    let comments = RecordedIssueComments()
    withKnownIssue(isIntermittent: true) {
        body()
    } matching: { issue in
        comments.append(issue)
        return true
    }
    return comments.all
}

/// The comments a known-issue block collects, from whichever task records them.
private final class RecordedIssueComments: @unchecked Sendable {
    // @unchecked Sendable: `comments` is only touched with `lock` held.
    private let lock = NSLock()
    private var comments: [String] = []

    func append(_ issue: Issue) {
        lock.withLock { comments.append(contentsOf: issue.comments.map(\.rawValue)) }
    }

    var all: [String] { lock.withLock { comments } }
}
