/// A part of the mail state that an observer shows, as a view of the app would.
public enum MailPart: Hashable, Sendable, CustomStringConvertible {
    /// A folder's unread count: the badge next to its name in the sidebar.
    case unreadCount(Folder)
    /// A folder's messages: its message list.
    case messageList(Folder)
    /// The unread count of all folders together: the app's badge.
    case totalUnreadCount
    /// The colour scheme, which every screen follows.
    case theme
    /// The signature, which the compose window shows.
    case signature

    /// Every part of the state of an app with these folders: each folder's unread count and message
    /// list, then the total unread count, the theme and the signature.
    ///
    /// - Parameter folders: The app's folders.
    /// - Returns: Two parts per folder, and three more.
    public static func all(in folders: [Folder]) -> [MailPart] {
        folders.map(MailPart.unreadCount) + folders.map(MailPart.messageList)
            + [.totalUnreadCount, .theme, .signature]
    }

    /// The part as the comparison table names it, such as "Inbox badge".
    public var description: String {
        switch self {
        case .unreadCount(let folder): "\(folder.name) badge"
        case .messageList(let folder): "\(folder.name) list"
        case .totalUnreadCount: "total unread"
        case .theme: "theme"
        case .signature: "signature"
        }
    }
}
