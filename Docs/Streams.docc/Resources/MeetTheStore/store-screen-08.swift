import Foundation
import Observation
import Streams

/// A piece of the screen that counts how often it is drawn.
final class Label {
    let name: String
    private(set) var text = ""
    private(set) var renders = 0

    init(_ name: String) {
        self.name = name
    }

    func render(_ text: String) {
        self.text = text
        renders += 1
    }
}

/// What the title shows: the two parts of the state it reads.
struct TitleContent: Equatable {
    var folder: String
    var unread: Int

    var text: String { "\(folder) (\(unread))" }
}

/// The same state as an `@Observable` model: Observation tracks each property on its own.
@Observable final class AppModel {
    var userName = "Ada"
    var folder = "Inbox"
    var unread = 0
    var isSyncing = false

    /// The title's part of the model; it changes when `folder` or `unread` does.
    var titleContent: TitleContent {
        TitleContent(folder: folder, unread: unread)
    }

    /// The model's properties as one value.
    var state: AppState {
        get {
            AppState(
                userName: userName, folder: folder, unread: unread, isSyncing: isSyncing)
        }
        set {
            // The macro's setters skip a value equal to the stored one: no observer
            // hears about it.
            userName = newValue.userName
            folder = newValue.folder
            unread = newValue.unread
            isSyncing = newValue.isSyncing
        }
    }
}

/// The mail app's screen: three labels, each observing the properties it shows of one
/// model.
final class Screen {
    let model = AppModel()
    let title = Label("title")
    let sync = Label("sync")
    let profile = Label("profile")
    private var subscriptions = Set<AnyCancellable>()

    init() {
        model.publisher(for: \.titleContent)
            .sink { [title] content in title.render(content.text) }
            .store(in: &subscriptions)
        model.publisher(for: \.isSyncing)
            .sink { [sync] isSyncing in
                sync.render(isSyncing ? "Syncing…" : "Up to date")
            }
            .store(in: &subscriptions)
        model.publisher(for: \.userName)
            .sink { [profile] userName in profile.render(userName) }
            .store(in: &subscriptions)
    }

    /// Changes the state, as the user or the server does, then lets the main run loop

    /// turn once: the publishers read the new values there.
    func apply(_ change: @escaping (inout AppState) -> Void) {
        change(&model.state)
        RunLoop.main.run(until: Date())
    }

    /// How often each label was drawn.
    var report: String {
        let labels = [title, sync, profile]
        let counts = labels.map { "\($0.name) \($0.renders)" }.joined(separator: ", ")
        return "\(counts): \(labels.map(\.renders).reduce(0, +)) renders"
    }
}
