import Mail
import Testing

/// Subscribed to the whole state, every observer wakes for every write: even for one that changed
/// nothing it shows, or nothing at all.
@Suite struct WholeStateWakeTests {
    @Test(arguments: [
        MailWrite.markRead(SampleMail.lunch.id),
        .receive(sender: "Mum", subject: "Photos", in: SampleMail.family.id),
        .setTheme(.dark),
        .setTheme(.system),
    ])
    func everyWriteWakesEveryone(write: MailWrite) async throws {
        let fixture = try await MailFixture()
        #expect(try await fixture.wakes(for: write).wholeState == .everyoneOnce)
    }
}
