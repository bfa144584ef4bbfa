public import GRDB

/// The app's settings: the single row of the `settings` table.
public struct Settings: Codable, Hashable, Sendable, FetchableRecord, TableRecord {
    /// The table's name.
    public static let databaseTableName = "settings"

    /// The settings of a database that has none yet.
    public static let defaults = Settings(signature: "", theme: .system)

    /// The text added at the end of every message the user writes.
    public var signature: String
    /// The app's colour scheme.
    public var theme: Theme

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - signature: The text added at the end of every message the user writes.
    ///   - theme: The app's colour scheme.
    public init(signature: String, theme: Theme) {
        self.signature = signature
        self.theme = theme
    }
}
