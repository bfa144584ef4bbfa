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

/// The mail app's screen: three labels that observe one model.
final class Screen {
    let model = AppModel()
    let title = Label("title")
    let sync = Label("sync")
    let profile = Label("profile")
    private var subscriptions = Set<AnyCancellable>()

    init() {
        renderAll()
        model.objectDidChange
            .sink { [weak self] in self?.renderAll() }
            .store(in: &subscriptions)
    }

    /// Draws every label from the model's state: a change to any part of it draws them all.
    private func renderAll() {
        let state = model.state
        title.render(TitleContent(folder: state.folder, unread: state.unread).text)
        sync.render(state.isSyncing ? "Syncing…" : "Up to date")
        profile.render(state.userName)
    }

    /// Changes the state, as the user or the server does.
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
