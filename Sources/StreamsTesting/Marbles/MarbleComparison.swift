/// Compares two marble diagrams and, when they differ, records a test failure that shows both,
/// one above the other, with a caret under the first column where they differ.
///
/// Both diagrams are compared by the events they show, not by how they are typed: spaces and
/// trailing `-` make no difference, so `"--a--b--"` matches `"--a --b"`, and neither does a group
/// of one event, so `"(a)-b"` matches `"a---b"`.
/// The failure goes to Swift Testing or XCTest, whichever runs the test, at the caller's line:
///
/// ```swift
/// @Test func doublesEachDigit() {
///     let scheduler = DispatchQueue.test
///     let digits = scheduler.createColdPublisher(marbles: "1-2-3|", outputType: Int.self)
///     expectMarbles(scheduler.marbles(of: digits.map { $0 * 2 }), "2-4-6|")
/// }
/// ```
///
/// Had the operator doubled only the first digit, the test would fail with:
///
/// ```text
/// Marble diagrams differ at column 3:
/// expected: 2-4-6|
/// actual:   2-2-3|
///             ^
/// ```
///
/// A diagram that is not well formed (such as a `cannot draw: …` message from
/// ``TestScheduler/marbles(of:frame:frames:fileID:filePath:line:column:)``) is compared as written.
///
/// - Parameters:
///   - actual: The diagram the code under test produced.
///   - expected: The diagram it should have produced.
///   - fileID: The file the failure is recorded in; leave the default.
///   - filePath: The path of that file; leave the default.
///   - line: The line the failure is recorded at; leave the default.
///   - column: The column the failure is recorded at; leave the default.
public func expectMarbles(
    _ actual: String, _ expected: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let normalizedActual = normalizedMarbles(actual, kind: .expected)
    let normalizedExpected = normalizedMarbles(expected, kind: .expected)
    if let message = marbleMismatch(expected: normalizedExpected, actual: normalizedActual) {
        TestIssueReporter.report(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// `diagram` drawn anew from what it says, or as written if it is not well formed.
func normalizedMarbles(_ diagram: String, kind: MarbleDiagram.Kind) -> String {
    guard let parsed = try? MarbleDiagram(diagram, kind: kind) else { return diagram }
    let marks = parsed.events.map { event in
        MarbleDrawing.Mark(frame: event.frame, symbol: event.symbol.character)
    }
    return (try? MarbleDrawing(marks))?.diagram ?? diagram
}

extension MarbleDiagram.Symbol {
    /// The character the symbol is written as.
    var character: Character {
        switch self {
        case .value(let character): character
        case .finished: "|"
        case .failure: "#"
        case .subscribed: "^"
        case .cancelled: "!"
        }
    }
}

/// The failure message for two diagrams that differ, or `nil` when they are the same:
///
/// ```text
/// Marble diagrams differ at column 6:
/// expected: --a--b-|
/// actual:   --a--c-|
///                ^
/// ```
///
/// `subject` replaces "Marble diagrams differ"; `notes` are lines added after the caret (a legend).
func marbleMismatch(
    expected: String, actual: String, subject: String = "Marble diagrams differ", notes: [String] = []
) -> String? {
    guard expected != actual else { return nil }
    let expectedCharacters = Array(expected)
    let actualCharacters = Array(actual)
    var column = 0
    while column < expectedCharacters.count && column < actualCharacters.count
        && expectedCharacters[column] == actualCharacters[column]
    {
        column += 1
    }
    var lines = [
        "\(subject) at column \(column + 1):",
        "expected: \(expected)",
        "actual:   \(actual)",
        String(repeating: " ", count: 10 + column) + "^",
    ]
    lines += notes
    return lines.joined(separator: "\n")
}
