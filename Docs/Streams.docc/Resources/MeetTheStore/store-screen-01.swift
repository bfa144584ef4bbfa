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

/// The mail app's screen: three labels that observe one store.
final class Screen {
    let store = CurrentValueSubject<AppState, Never>(AppState())
    let title = Label("title")
    let sync = Label("sync")
    let profile = Label("profile")
    private var subscriptions = Set<AnyCancellable>()

    init() {
        store
            .sink { [title] state in title.render("\(state.folder) (\(state.unread))") }
            .store(in: &subscriptions)
        store
            .sink { [sync] state in
                sync.render(state.isSyncing ? "Syncing…" : "Up to date")
            }
            .store(in: &subscriptions)
        store
            .sink { [profile] state in profile.render(state.userName) }
            .store(in: &subscriptions)
    }

    /// Changes the state, as the user or the server does.
    func apply(_ change: @escaping (inout AppState) -> Void) {
        change(&store.value)
    }

    /// How often each label was drawn.
    var report: String {
        let labels = [title, sync, profile]
        let counts = labels.map { "\($0.name) \($0.renders)" }.joined(separator: ", ")
        return "\(counts): \(labels.map(\.renders).reduce(0, +)) renders"
    }
}
