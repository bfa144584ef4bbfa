import Foundation
import Testing

/// The comments of the issues a known-issue block recorded. Issues may be recorded by several tasks
/// at once; an `NSLock` guards them rather than a `Mutex`, whose hand-over under contention goes
/// through the kernel on Linux, where the thread sanitizer cannot see it and reports a false race.
private final class IssueComments: @unchecked Sendable {
    // @unchecked Sendable: `comments` is only touched with `lock` held.
    private let lock = NSLock()
    private var comments: [String] = []

    func append(_ issue: Issue) {
        lock.withLock { comments.append(contentsOf: issue.comments.map(\.rawValue)) }
    }

    var all: [String] { lock.withLock { comments } }
}

/// Runs `body` as a known issue and returns the comments of the issues it recorded, in order; fails
/// the test if it recorded none.
func recordedIssues(_ body: () -> Void) -> [String] {
    let comments = IssueComments()
    withKnownIssue {
        body()
    } matching: { issue in
        comments.append(issue)
        return true
    }
    return comments.all
}

/// The asynchronous form of ``recordedIssues(_:)``.
nonisolated(nonsending) func recordedIssues(_ body: () async -> Void) async -> [String] {
    let comments = IssueComments()
    await withKnownIssue {
        await body()
    } matching: { issue in
        comments.append(issue)
        return true
    }
    return comments.all
}

/// Runs `body`, which misuses StreamsTesting, and checks that the misuse failed the test once, with a
/// message containing `message`, and that the test went on (this function returns).
func expectMisuse(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
    let issues = recordedIssues(body)
    #expect(issues.count == 1, "\(issues)", sourceLocation: sourceLocation)
    #expect(issues.first?.contains(message) == true, "\(issues)", sourceLocation: sourceLocation)
}
