import Mail
import Testing

/// The store mirrors the database: its first state is the database's, and each write's state is in
/// the store when `perform` returns.
@Suite struct MailStoreTests {
    @Test func firstStateIsTheSampleDatabase() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        let state = mail.state
        #expect(state.folders.map(\.folder) == SampleMail.folders)
        #expect(state.folders.map(\.unreadCount) == [2, 2, 2, 1, 3, 0])
        #expect(state.totalUnreadCount == 10)
        #expect(
            state[messagesIn: SampleMail.inbox.id].map(\.subject) == [
                "Your hold is ready", "Photos from the weekend", "Nightly build passed", "Lunch on Friday?",
            ])
        #expect(state.settings == .defaults)
    }

    @Test func markingReadLowersTheFolderUnreadCount() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        try await mail.perform(.markRead(SampleMail.lunch.id))
        #expect(mail.state[unreadCountIn: SampleMail.inbox.id] == 1)
        #expect(mail.state[messagesIn: SampleMail.inbox.id].last?.isRead == true)
        #expect(mail.state.totalUnreadCount == 9)
    }

    @Test func receivedMessageComesFirstInItsFolder() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        try await mail.perform(.receive(sender: "Airline", subject: "Gate changed", in: SampleMail.travel.id))
        let newest = try #require(mail.state[messagesIn: SampleMail.travel.id].first)
        #expect(newest.subject == "Gate changed")
        #expect(!newest.isRead)
        #expect(mail.state[unreadCountIn: SampleMail.travel.id] == 2)
    }

    @Test func movedMessageLeavesOneFolderForTheOther() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        try await mail.perform(.move(SampleMail.lunch.id, to: SampleMail.archive.id))
        #expect(!mail.state[messagesIn: SampleMail.inbox.id].map(\.id).contains(SampleMail.lunch.id))
        #expect(mail.state[messagesIn: SampleMail.archive.id].map(\.id).contains(SampleMail.lunch.id))
        #expect(mail.state[unreadCountIn: SampleMail.inbox.id] == 1)
        #expect(mail.state[unreadCountIn: SampleMail.archive.id] == 1)
    }

    @Test func settingsWritesReachTheStore() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        try await mail.perform(.setTheme(.dark))
        try await mail.perform(.setSignature("Cheers"))
        #expect(mail.state.settings == Settings(signature: "Cheers", theme: .dark))
    }

    @Test func writeThatFindsNoRowThrowsAndChangesNothing() async throws {
        let mail = try await MailStore(database: MailDatabase.makeSample())
        let before = mail.state
        await #expect(throws: MailWriteError.noMatchingRow(.markRead(999))) {
            try await mail.perform(.markRead(999))
        }
        // The failed write produced no state: the next write's state is the next one to arrive.
        try await mail.perform(.setTheme(.light))
        var expected = before
        expected.settings.theme = .light
        #expect(mail.state == expected)
    }
}
