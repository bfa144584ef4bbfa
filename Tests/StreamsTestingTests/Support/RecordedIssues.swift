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

/// The source locations of the issues a known-issue block recorded. See ``IssueComments`` for why an
/// `NSLock`.
private final class IssueLocations: @unchecked Sendable {
    // @unchecked Sendable: `locations` is only touched with `lock` held.
    private let lock = NSLock()
    private var locations: [SourceLocation?] = []

    func append(_ issue: Issue) {
        lock.withLock { locations.append(issue.sourceLocation) }
    }

    var all: [SourceLocation?] { lock.withLock { locations } }
}

/// Checks that `locations` holds at least one location, and that each is `line` of the file with
/// `fileID` and `filePath`.
private func expectAll(
    _ locations: [SourceLocation?], at line: Int, fileID: String, filePath: String, sourceLocation: SourceLocation
) {
    #expect(!locations.isEmpty, "no issue was recorded", sourceLocation: sourceLocation)
    for location in locations {
        #expect(location?.fileID == fileID, "\(String(describing: location))", sourceLocation: sourceLocation)
        #expect(location?.filePath == filePath, "\(String(describing: location))", sourceLocation: sourceLocation)
        #expect(location?.line == line, "\(String(describing: location))", sourceLocation: sourceLocation)
    }
}

/// Runs `body`, which misuses a StreamsTesting entry point in a call written on line `line` of the
/// calling file (pass `#line`, with the call on the same line), and checks that every issue it
/// recorded, at least one, is located at that line of that file: at the test's call, not in
/// StreamsTesting.
func expectReported(
    atLine line: Int, fileID: String = #fileID, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) {
    let locations = IssueLocations()
    withKnownIssue {
        body()
    } matching: { issue in
        locations.append(issue)
        return true
    }
    expectAll(locations.all, at: line, fileID: fileID, filePath: filePath, sourceLocation: sourceLocation)
}

/// The asynchronous form of ``expectReported(atLine:fileID:filePath:sourceLocation:_:)``.
nonisolated(nonsending) func expectReported(
    atLine line: Int, fileID: String = #fileID, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async {
    let locations = IssueLocations()
    await withKnownIssue {
        await body()
    } matching: { issue in
        locations.append(issue)
        return true
    }
    expectAll(locations.all, at: line, fileID: fileID, filePath: filePath, sourceLocation: sourceLocation)
}
