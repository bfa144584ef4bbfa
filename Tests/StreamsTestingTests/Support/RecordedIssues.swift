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
nonisolated(nonsending) func recordedIssues(_ body: () async -> Void) async -> [String] {
    let comments = Mutex<[String]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        comments.withLock { $0.append(contentsOf: issue.comments.map(\.rawValue)) }
        return true
    }
    return comments.withLock { $0 }
}

/// Runs `body`, which misuses StreamsTesting, and checks that the misuse failed the test once, with a
/// message containing `message`, and that the test went on (this function returns).
func expectMisuse(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
    let issues = recordedIssues(body)
    #expect(issues.count == 1, "\(issues)", sourceLocation: sourceLocation)
    #expect(issues.first?.contains(message) == true, "\(issues)", sourceLocation: sourceLocation)
}
