import Synchronization
import Testing

/// Runs `body` as a known issue and returns the comments of the issues it recorded, in order; fails
/// the test if it recorded none.
func recordedIssues(_ body: () -> Void) -> [String] {
    let comments = Mutex<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        comments.withLock { $0.append(contentsOf: issue.comments.map(\.rawValue)) }
        return true
    }
    return comments.withLock { $0 }
}

/// The asynchronous form of ``recordedIssues(_:)``.
func recordedIssues(_ body: () async -> Void) async -> [String] {
    let comments = Mutex<[String]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        comments.withLock { $0.append(contentsOf: issue.comments.map(\.rawValue)) }
        return true
    }
    return comments.withLock { $0 }
}
