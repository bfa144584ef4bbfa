import GRDB

/// The mail a new sample database starts with: six folders and nineteen messages, ten of them unread.
public enum SampleMail {
    /// Where new mail arrives.
    public static let inbox = Folder(id: 1, name: "Inbox", position: 0)
    /// Mail from colleagues.
    public static let work = Folder(id: 2, name: "Work", position: 1)
    /// Mail from relatives.
    public static let family = Folder(id: 3, name: "Family", position: 2)
    /// Bookings and travel updates.
    public static let travel = Folder(id: 4, name: "Travel", position: 3)
    /// Newsletters the user subscribed to.
    public static let newsletters = Folder(id: 5, name: "Newsletters", position: 4)
    /// Mail kept for later.
    public static let archive = Folder(id: 6, name: "Archive", position: 5)

    /// Every folder, in sidebar order.
    public static let folders = [inbox, work, family, travel, newsletters, archive]

    /// An unread message in the inbox.
    public static let lunch = Message(
        id: 1, folderID: inbox.id, sender: "Ana Lima", subject: "Lunch on Friday?", isRead: false)
    /// A read message at work.
    public static let quarterlyReport = Message(
        id: 5, folderID: work.id, sender: "Priya Nair", subject: "Quarterly report", isRead: true)
    /// An unread message from the family.
    public static let homework = Message(
        id: 10, folderID: family.id, sender: "Leo", subject: "Can you help with homework?", isRead: false)

    /// Every message.
    public static let messages: [Message] = [
        lunch,
        Message(id: 2, folderID: inbox.id, sender: "Build bot", subject: "Nightly build passed", isRead: true),
        Message(id: 3, folderID: inbox.id, sender: "Sam Park", subject: "Photos from the weekend", isRead: false),
        Message(id: 4, folderID: inbox.id, sender: "City Library", subject: "Your hold is ready", isRead: true),
        quarterlyReport,
        Message(id: 6, folderID: work.id, sender: "Priya Nair", subject: "Agenda for Monday", isRead: false),
        Message(id: 7, folderID: work.id, sender: "Tom Becker", subject: "Review: the parser", isRead: false),
        Message(id: 8, folderID: work.id, sender: "People team", subject: "Holiday calendar", isRead: true),
        Message(id: 9, folderID: family.id, sender: "Mum", subject: "Sunday dinner", isRead: false),
        homework,
        Message(id: 11, folderID: family.id, sender: "Dad", subject: "Garden photos", isRead: true),
        Message(id: 12, folderID: travel.id, sender: "Airline", subject: "Booking confirmation", isRead: true),
        Message(id: 13, folderID: travel.id, sender: "Hotel Alfama", subject: "Your stay in Lisbon", isRead: false),
        Message(id: 14, folderID: newsletters.id, sender: "Swift Weekly", subject: "Issue 310", isRead: false),
        Message(id: 15, folderID: newsletters.id, sender: "SQLite News", subject: "Release notes", isRead: false),
        Message(id: 16, folderID: newsletters.id, sender: "Cooking Club", subject: "Autumn recipes", isRead: false),
        Message(id: 17, folderID: newsletters.id, sender: "Swift Weekly", subject: "Issue 309", isRead: true),
        Message(id: 18, folderID: archive.id, sender: "Bank", subject: "Statement for October", isRead: true),
        Message(id: 19, folderID: archive.id, sender: "Ana Lima", subject: "Re: Conference", isRead: true),
    ]

    /// Inserts the sample folders and messages.
    static func insert(into db: Database) throws {
        for folder in folders { try folder.insert(db) }
        for message in messages { try message.insert(db) }
    }
}
