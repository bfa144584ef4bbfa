public import GRDB

/// A mail folder, such as the inbox or the archive: a row of the `folder` table.
public struct Folder: Codable, Hashable, Identifiable, Sendable, FetchableRecord, PersistableRecord {
    /// The folder's row id.
    public var id: Int64
    /// The name the sidebar shows.
    public var name: String
    /// Where the folder appears in the sidebar, counted from the top.
    public var position: Int

    /// Creates a folder.
    ///
    /// - Parameters:
    ///   - id: The folder's row id.
    ///   - name: The name the sidebar shows.
    ///   - position: Where the folder appears in the sidebar, counted from the top.
    public init(id: Int64, name: String, position: Int) {
        self.id = id
        self.name = name
        self.position = position
    }
}
