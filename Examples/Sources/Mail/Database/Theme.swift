public import GRDB

/// The app's colour scheme, stored in the database by name.
public enum Theme: String, Codable, CaseIterable, Sendable, DatabaseValueConvertible {
    /// Follow the system's appearance.
    case system
    /// Always light.
    case light
    /// Always dark.
    case dark
}
