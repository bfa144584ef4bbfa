import Foundation

/// A failure report that ``TestIssueReporter`` collected into a ``ReportCapture``: its message and the
/// source location it was reported at.
struct CapturedReport: Sendable, Equatable {
    /// The report's message.
    let message: String
    /// The reporting location's file ID (`Module/File.swift`).
    let fileID: String
    /// The reporting location's file path.
    let filePath: String
    /// The reporting location's line.
    let line: Int
    /// The reporting location's column.
    let column: Int
}

/// The failure reports made while a capture is bound to ``TestIssueReporter/capture``, in the order
/// they were made. Reports may come from several threads of one task tree at once.
final class ReportCapture: @unchecked Sendable {
    // @unchecked Sendable: `reports` is only touched with `lock` held. An `NSLock` rather than a
    // `Mutex`, whose hand-over under contention the thread sanitizer cannot see on Linux.
    private let lock = NSLock()
    private var reports: [CapturedReport] = []

    /// Creates an empty capture.
    init() {}

    /// Adds `report`.
    func append(_ report: CapturedReport) {
        lock.withLock { reports.append(report) }
    }

    /// The reports so far, in order.
    var all: [CapturedReport] { lock.withLock { reports } }
}
