// One SQLite database, one store, hundreds of observers: plays a day of mail on the sample database
// and prints, for each write, how many observers woke when they observe slices of the state, and how
// many woke when they observe the whole state.

import Foundation
import Mail

let directory = FileManager.default.temporaryDirectory.appending(path: "mail-store-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

// The single source of truth, and the store that mirrors it.
let database = try MailDatabase.makeSample(at: directory.appending(path: "mail.sqlite").path)
let mail = try await MailStore(database: database)

// The same parts observed twice: by slices, five observers per part for each of the four ways, and
// by the whole state, as many observers per part.
let parts = MailPart.all(in: SampleMail.folders)
let copies = 5
let slicing = MailObservers(of: mail, parts: parts, ways: ObservationWay.slicing, copies: copies)
let wholeState = MailObservers(
    of: mail, parts: parts, ways: [.wholeState], copies: copies * ObservationWay.slicing.count)

// The writer: a background task that writes through GRDB, one write after another.
let writer = Task.detached {
    try await MailScript.play(on: mail, slicing: slicing, wholeState: wholeState)
}
let outcomes = try await writer.value

let ways = ObservationWay.slicing.map(\.description)
let introduction = [
    """
    Mail on SQLite: \(SampleMail.folders.count) folders and \(SampleMail.messages.count) messages, \
    observed with GRDB; each new state reaches a Store through AsyncSequence.publisher. Each write \
    runs on GRDB's writer queue, and the next one waits until its state has reached every observer.
    """,
    """
    \(slicing.count) observers of slices: each shows one of \(parts.count) parts of the state (a \
    folder's badge or message list, the total unread count, the theme, the signature), \(copies) per \
    part through each of \(ways.dropLast().joined(separator: ", ")) and \(ways.last ?? "").
    """,
    """
    \(wholeState.count) observers of the whole state: the same parts, \(copies * ways.count) per \
    part, each subscribed to the store's subject.
    """,
]
let table = ComparisonTable(outcomes: outcomes, parts: parts)
print(introduction.map { wrapped($0, width: 100) }.joined(separator: "\n"))
print()
print(table.text)
print()
print(table.byWay)
print(table.summary)
