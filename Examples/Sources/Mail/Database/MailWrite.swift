public import GRDB

/// A change to the mail database: what the app writes when the user acts or new mail arrives.
public enum MailWrite: Hashable, Sendable {
    /// Marks a message read (again, if it already was).
    case markRead(Message.ID)
    /// Marks every message of a folder read.
    case markAllRead(in: Folder.ID)
    /// Adds a new, unread message to a folder.
    case receive(sender: String, subject: String, in: Folder.ID)
    /// Moves a message to another folder.
    case move(Message.ID, to: Folder.ID)
    /// Deletes a message.
    case delete(Message.ID)
    /// Sets the colour scheme.
    case setTheme(Theme)
    /// Sets the signature.
    case setSignature(String)

    /// Makes the change, inside a write transaction.
    ///
    /// - Parameter db: A database connection, inside a write transaction.
    /// - Throws: ``MailWriteError/noMatchingRow(_:)`` when the change found no row to write, such as
    ///   a message that does not exist, and any database error.
    public func apply(to db: Database) throws {
        switch self {
        case .markRead(let messageID):
            try db.execute(literal: "UPDATE message SET isRead = 1 WHERE id = \(messageID)")
        case .markAllRead(let folderID):
            try db.execute(literal: "UPDATE message SET isRead = 1 WHERE folderID = \(folderID)")
        case .receive(let sender, let subject, let folderID):
            try db.execute(
                literal: """
                    INSERT INTO message (folderID, sender, subject, isRead)
                    VALUES (\(folderID), \(sender), \(subject), 0)
                    """)
        case .move(let messageID, let folderID):
            try db.execute(literal: "UPDATE message SET folderID = \(folderID) WHERE id = \(messageID)")
        case .delete(let messageID):
            try db.execute(literal: "DELETE FROM message WHERE id = \(messageID)")
        case .setTheme(let theme):
            try db.execute(literal: "UPDATE settings SET theme = \(theme)")
        case .setSignature(let signature):
            try db.execute(literal: "UPDATE settings SET signature = \(signature)")
        }
        // A write that touches no row produces no new state, and nobody would hear of it.
        guard db.changesCount > 0 else { throw MailWriteError.noMatchingRow(self) }
    }
}

/// Why a ``MailWrite`` failed.
public enum MailWriteError: Error, Equatable {
    /// The write found no row to change: the message does not exist, or the folder is empty.
    case noMatchingRow(MailWrite)
}
