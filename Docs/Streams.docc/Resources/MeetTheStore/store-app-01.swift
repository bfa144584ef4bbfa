/// Plays a short session against the screen and reports how often each label was drawn.
@main
struct MailApp {
    static func main() {
        let screen = Screen()
        screen.apply { $0.isSyncing = true }
        screen.apply { $0.unread += 3 }
        screen.apply { $0.isSyncing = false }
        screen.apply { $0.folder = "Archive" }
        screen.apply { $0.unread = 3 }  // the value it already has
        screen.apply { $0.userName = "Ada Lovelace" }
        print(screen.report)
    }
}
