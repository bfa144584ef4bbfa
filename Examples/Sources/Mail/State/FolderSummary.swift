public import GRDB

/// A folder as the sidebar shows it: its name and how many of its messages are unread.
public struct FolderSummary: Hashable, Sendable, FetchableRecord {
    /// The folder.
    public var folder: Folder
    /// How many of the folder's messages are unread.
    public var unreadCount: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - unreadCount: How many of the folder's messages are unread.
    public init(folder: Folder, unreadCount: Int) {
        self.folder = folder
        self.unreadCount = unreadCount
    }

    /// Reads a summary from a row holding a folder's columns and an `unreadCount` column.
    public init(row: Row) throws {
        folder = try Folder(row: row)
        unreadCount = row["unreadCount"]
    }
}
