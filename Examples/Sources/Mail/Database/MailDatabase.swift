public import GRDB

/// Opens the mail database: the app's single source of truth.
public enum MailDatabase {
    /// Creates a database, with the mail tables filled with ``SampleMail``.
    ///
    /// ```swift
    /// let database = try MailDatabase.makeSample()   // in memory, as in tests
    /// let inbox = try await database.read { db in try Folder.fetchOne(db, id: SampleMail.inbox.id) }
    /// ```
    ///
    /// - Parameter path: Where to create the database file, where none exists yet; `nil` keeps the
    ///   database in memory.
    /// - Returns: A queue to read and write the database through.
    public static func makeSample(at path: String? = nil) throws -> DatabaseQueue {
        let database = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
        try migrator.migrate(database)
        try database.write { db in try SampleMail.insert(into: db) }
        return database
    }

    /// The schema: folders, the messages in them, and the one row of settings.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create the mail tables") { db in
            try db.create(table: "folder") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("position", .integer).notNull()
            }
            try db.create(table: "message") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("folderID", .integer).notNull().indexed()
                    .references("folder", onDelete: .cascade)
                table.column("sender", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("isRead", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "settings") { table in
                // One row at most: its id can only be 1.
                table.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                table.column("signature", .text).notNull()
                table.column("theme", .text).notNull()
            }
            try db.execute(
                literal: """
                    INSERT INTO settings (id, signature, theme)
                    VALUES (1, \(Settings.defaults.signature), \(Settings.defaults.theme))
                    """)
        }
        return migrator
    }
}
