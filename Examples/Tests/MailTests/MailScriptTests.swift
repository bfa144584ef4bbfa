import Mail
import Testing

/// The script the executable plays gives the numbers it prints, on every run.
@Suite struct MailScriptTests {
    @Test func scriptWakesWhatEachWriteChanged() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        let parts = MailPart.all(in: SampleMail.folders)
        let slicing = MailObservers(of: mail, parts: parts, ways: ObservationWay.slicing, copies: 5)
        let wholeState = MailObservers(of: mail, parts: parts, ways: [.wholeState], copies: 20)
        #expect(slicing.count == 300 && wholeState.count == 300)

        let outcomes = try await MailScript.play(on: mail, slicing: slicing, wholeState: wholeState)

        #expect(outcomes.map(\.slicing.total) == [60, 60, 40, 20, 20, 60, 0, 60])
        #expect(outcomes.map(\.wholeState.total) == Array(repeating: 300, count: 8))
        let (inbox, work, family, travel, newsletters, archive) = (
            SampleMail.inbox, SampleMail.work, SampleMail.family, SampleMail.travel, SampleMail.newsletters,
            SampleMail.archive
        )
        #expect(
            outcomes.map { Set($0.slicing.byPart.keys) } == [
                [.unreadCount(inbox), .messageList(inbox), .totalUnreadCount],
                [.unreadCount(travel), .messageList(travel), .totalUnreadCount],
                [.messageList(work), .messageList(archive)],
                [.theme],
                [.signature],
                [.unreadCount(newsletters), .messageList(newsletters), .totalUnreadCount],
                [],
                [.unreadCount(family), .messageList(family), .totalUnreadCount],
            ])
        // Every observer that woke, woke once.
        #expect(outcomes.allSatisfy { $0.slicing.byObserver.values.allSatisfy { $0 == 1 } })
    }
}
