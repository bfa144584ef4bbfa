/// The writes the example plays on the sample database, and the way it plays them.
public enum MailScript {
    /// A day of mail: each write changes one or two parts of the state, or, once, none.
    public static let writes: [ScriptedWrite] = [
        ScriptedWrite(#"mark "Lunch on Friday?" read"#, .markRead(SampleMail.lunch.id)),
        ScriptedWrite(
            #"receive "Your flight is on time" in Travel"#,
            .receive(sender: "Airline", subject: "Your flight is on time", in: SampleMail.travel.id)),
        ScriptedWrite(
            #"move "Quarterly report" (read) to Archive"#,
            .move(SampleMail.quarterlyReport.id, to: SampleMail.archive.id)),
        ScriptedWrite("switch the theme to dark", .setTheme(.dark)),
        ScriptedWrite("change the signature", .setSignature("Best,\nJo")),
        ScriptedWrite("mark all of Newsletters read", .markAllRead(in: SampleMail.newsletters.id)),
        ScriptedWrite(#"mark "Lunch on Friday?" read again"#, .markRead(SampleMail.lunch.id)),
        ScriptedWrite(#"delete "Can you help with homework?""#, .delete(SampleMail.homework.id)),
    ]

    /// Plays writes one after another, each once the state the previous one produced has reached
    /// every observer, and reports who woke for each.
    ///
    /// - Parameters:
    ///   - writes: The writes to play, in order.
    ///   - mail: The store whose database to write.
    ///   - slicing: Observers of slices of the store.
    ///   - wholeState: Observers of the whole state of the same store.
    /// - Returns: One outcome per write, in order.
    public static func play(
        _ writes: [ScriptedWrite] = writes, on mail: MailStore, slicing: MailObservers, wholeState: MailObservers
    ) async throws -> [WriteOutcome] {
        _ = slicing.takeWakes()
        _ = wholeState.takeWakes()
        var outcomes: [WriteOutcome] = []
        for write in writes {
            try await mail.perform(write.write)
            outcomes.append(
                WriteOutcome(write: write, slicing: slicing.takeWakes(), wholeState: wholeState.takeWakes()))
        }
        return outcomes
    }
}
