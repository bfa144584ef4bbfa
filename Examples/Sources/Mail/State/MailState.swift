/// Everything the app shows, as one value: a snapshot of the mail database.
///
/// Observers read parts of it: a folder's unread count (``subscript(unreadCountIn:)``), a folder's
/// messages (``subscript(messagesIn:)``), the ``totalUnreadCount``, the ``settings``. Each is a key
/// path, so each can be a slice of a `Store`: `store.slice(\.[unreadCountIn: inbox.id])`.
public struct MailState: Equatable, Sendable {
    /// The folders, in sidebar order, each with its unread count.
    public var folders: [FolderSummary]
    /// Each folder's messages, newest first; a folder without messages has no entry.
    public var messagesByFolder: [Folder.ID: [Message]]
    /// The app's settings.
    public var settings: Settings

    /// Creates a state: by default, an empty one, as a store holds before the database is read.
    ///
    /// - Parameters:
    ///   - folders: The folders, in sidebar order, each with its unread count.
    ///   - messagesByFolder: Each folder's messages, newest first.
    ///   - settings: The app's settings.
    public init(
        folders: [FolderSummary] = [], messagesByFolder: [Folder.ID: [Message]] = [:],
        settings: Settings = .defaults
    ) {
        self.folders = folders
        self.messagesByFolder = messagesByFolder
        self.settings = settings
    }

    /// How many messages of a folder are unread: the badge next to its name.
    public subscript(unreadCountIn folderID: Folder.ID) -> Int {
        folders.first { $0.folder.id == folderID }?.unreadCount ?? 0
    }

    /// A folder's messages, newest first: its message list.
    public subscript(messagesIn folderID: Folder.ID) -> [Message] {
        messagesByFolder[folderID] ?? []
    }

    /// How many messages are unread in all folders: the app's badge.
    public var totalUnreadCount: Int {
        folders.reduce(0) { $0 + $1.unreadCount }
    }
}
