import Mail
import Testing

/// With slices, a write wakes the observers of the parts it changed, once each, whatever their way
/// of observing, and no one else.
@Suite struct SliceWakeTests {
    let inbox = SampleMail.inbox
    let work = SampleMail.work

    @Test func markingReadInOneFolderWakesThatFolderOnly() async throws {
        let fixture = try await MailFixture()
        let woken = try await fixture.wakes(for: .markRead(SampleMail.lunch.id)).slicing
        #expect(woken == .once([.unreadCount(inbox), .messageList(inbox), .totalUnreadCount]))
        #expect(woken.byPart == [.unreadCount(inbox): 8, .messageList(inbox): 8, .totalUnreadCount: 8])
        #expect(woken.byWay == [.storeSlice: 6, .mapRemoveDuplicates: 6, .deduplicated: 6, .observedPublisher: 6])
        #expect(woken.byPart[.unreadCount(work)] == nil)
        #expect(woken.byPart[.theme] == nil && woken.byPart[.signature] == nil)
    }

    @Test func receivingMessageWakesItsFolderOnly() async throws {
        let fixture = try await MailFixture()
        let woken = try await fixture.wakes(for: .receive(sender: "Tom Becker", subject: "Standup", in: work.id))
        #expect(woken.slicing == .once([.unreadCount(work), .messageList(work), .totalUnreadCount]))
    }

    @Test func movingReadMessageWakesBothListsAndNoBadge() async throws {
        let fixture = try await MailFixture()
        let woken = try await fixture.wakes(for: .move(SampleMail.quarterlyReport.id, to: SampleMail.archive.id))
        #expect(woken.slicing == .once([.messageList(work), .messageList(SampleMail.archive)]))
    }

    @Test func settingsWakeTheirOwnObserversOnly() async throws {
        let fixture = try await MailFixture()
        #expect(try await fixture.wakes(for: .setTheme(.dark)).slicing == .once([.theme]))
        #expect(try await fixture.wakes(for: .setSignature("Cheers")).slicing == .once([.signature]))
    }

    @Test func rewritingTheSameValueWakesNobody() async throws {
        let fixture = try await MailFixture()
        _ = try await fixture.wakes(for: .markRead(SampleMail.lunch.id))
        #expect(try await fixture.wakes(for: .markRead(SampleMail.lunch.id)).slicing == Wakes())
        #expect(try await fixture.wakes(for: .setTheme(.system)).slicing == Wakes())
    }
}
