public import GRDB

/// An email in a folder: a row of the `message` table.
public struct Message: Codable, Hashable, Identifiable, Sendable, FetchableRecord, PersistableRecord {
    /// The message's row id; a new message gets the next one.
    public var id: Int64
    /// The folder the message is in.
    public var folderID: Folder.ID
    /// Who sent the message.
    public var sender: String
    /// The message's subject line.
    public var subject: String
    /// Whether the message has been read.
    public var isRead: Bool

    /// Creates a message.
    ///
    /// - Parameters:
    ///   - id: The message's row id.
    ///   - folderID: The folder the message is in.
    ///   - sender: Who sent the message.
    ///   - subject: The message's subject line.
    ///   - isRead: Whether the message has been read.
    public init(id: Int64, folderID: Folder.ID, sender: String, subject: String, isRead: Bool) {
        self.id = id
        self.folderID = folderID
        self.sender = sender
        self.subject = subject
        self.isRead = isRead
    }
}
