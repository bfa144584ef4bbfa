public import GRDB

extension MailState {
    /// Reads the whole state from the database, in one read.
    ///
    /// GRDB's `ValueObservation.tracking(MailState.fetch)` runs it again after every write to the
    /// tables it reads.
    ///
    /// - Parameter db: A database connection.
    /// - Returns: The state the database holds.
    public static func fetch(_ db: Database) throws -> MailState {
        let folders = try FolderSummary.fetchAll(
            db,
            sql: """
                SELECT folder.*, COUNT(message.id) FILTER (WHERE NOT message.isRead) AS unreadCount
                FROM folder
                LEFT JOIN message ON message.folderID = folder.id
                GROUP BY folder.id
                ORDER BY folder.position
                """)
        let messages = try Message.order(Column("id").desc).fetchAll(db)
        return MailState(
            folders: folders,
            messagesByFolder: Dictionary(grouping: messages, by: \.folderID),
            settings: try Settings.fetchOne(db) ?? .defaults)
    }
}
