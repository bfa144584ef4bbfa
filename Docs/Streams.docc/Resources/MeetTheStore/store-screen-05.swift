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

/// The state as an observable object, the way many apps keep it.
final class AppModel: ObservableObject {
    @Published var state = AppState()
}

/// The mail app's screen: three labels, each observing what it shows of one model.
final class Screen {
    let model = AppModel()
    let title = Label("title")
    let sync = Label("sync")
    let profile = Label("profile")
    let titleSource: Deduplicated<AppModel, TitleContent>
    let syncSource: Deduplicated<AppModel, Bool>
    let profileSource: Deduplicated<AppModel, String>
    private var subscriptions = Set<AnyCancellable>()

    init() {
        titleSource = model.deduplicated {
            TitleContent(folder: $0.state.folder, unread: $0.state.unread)
        }
        syncSource = model.deduplicated { $0.state.isSyncing }
        profileSource = model.deduplicated { $0.state.userName }

        title.render(titleSource.snapshot.text)
        sync.render(syncSource.snapshot ? "Syncing…" : "Up to date")
        profile.render(profileSource.snapshot)

        titleSource.objectWillChange
            .sink { [title, titleSource] in title.render(titleSource.snapshot.text) }
            .store(in: &subscriptions)
        syncSource.objectWillChange
            .sink { [sync, syncSource] in
                sync.render(syncSource.snapshot ? "Syncing…" : "Up to date")
            }
            .store(in: &subscriptions)
        profileSource.objectWillChange
            .sink { [profile, profileSource] in profile.render(profileSource.snapshot) }
            .store(in: &subscriptions)
    }

    /// Changes the state, as the user or the server does; each wrapper compares its

    /// snapshot right after the change.
    func apply(_ change: @escaping (inout AppState) -> Void) {
        change(&model.state)
    }

    /// How often each label was drawn.
    var report: String {
        let labels = [title, sync, profile]
        let counts = labels.map { "\($0.name) \($0.renders)" }.joined(separator: ", ")
        return "\(counts): \(labels.map(\.renders).reduce(0, +)) renders"
    }
}
