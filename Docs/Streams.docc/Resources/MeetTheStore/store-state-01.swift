/// Everything the mail app shows, in one value.
struct AppState: Equatable {
    var userName = "Ada"
    var folder = "Inbox"
    var unread = 0
    var isSyncing = false
}
