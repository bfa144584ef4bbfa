import Dispatch
import Streams
import StreamsTesting

/// The runs the article "Debugging a pipeline" shows, on a test scheduler's virtual time: the
/// seeds' store with a name label that does not update, the same label fixed, and a screen that
/// leaves a subscription behind.
enum DebuggingTimelines {
    /// A profile, described by its name.
    struct Profile: Equatable, CustomStringConvertible {
        var id: Int
        var name: String
        var description: String { name }
    }

    /// The app's state, described by what the article's labels show: `{Ada, 0}`.
    struct AppState: Equatable, CustomStringConvertible {
        var profile = Profile(id: 1, name: "Ada")
        var unread = 0
        var description: String { "{\(profile.name), \(unread)}" }
    }

    /// A screen's model that shows the unread count and, by mistake, holds itself through its
    /// subscription.
    final class BadgeModel {
        var badge = ""
        var cancellables: Set<AnyCancellable> = []

        init(state: CurrentValueSubject<AppState, Never>) {
            state.map { "\($0.unread)" }
                .removeDuplicates()
                .assign(to: \.badge, on: self)
                .store(in: &cancellables)
        }
    }

    /// The name label's pipeline, recorded whole: one second after it starts the unread count
    /// changes, one second later the name does, one second later the label goes away.
    static func nameLabel(fixed: Bool) -> TimelineRecorder {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let state = CurrentValueSubject<AppState, Never>(AppState())
        var label = ""
        let cancellable = recorder.record {
            if fixed {
                state.map(\.profile.name).removeDuplicates().sink { label = $0 }
            } else {
                // Deduplicated by id: a rename keeps the id, so it is dropped.
                state.map(\.profile).removeDuplicates { $0.id == $1.id }.map(\.name).sink { label = $0 }
            }
        }
        scheduler.advance(by: .seconds(1))
        state.value.unread += 1
        scheduler.advance(by: .seconds(1))
        state.value.profile.name = "Ada L."
        scheduler.advance(by: .seconds(1))
        precondition(label == (fixed ? "Ada L." : "Ada"))
        cancellable.cancel()
        return recorder
    }

    /// A screen with a badge opens next to a header, closes two seconds later, and three seconds
    /// after that the census is taken: what it says.
    static func forgottenSubscriptionCensus() -> String {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let state = CurrentValueSubject<AppState, Never>(AppState())
        var header = ""
        var screen: BadgeModel?
        let headerSubscription = recorder.record {
            screen = BadgeModel(state: state)
            return state.map(\.profile.name).removeDuplicates().sink { header = $0 }
        }
        scheduler.advance(by: .seconds(2))
        screen = nil
        scheduler.advance(by: .seconds(3))
        precondition(header == "Ada" && screen == nil)
        let census = recorder.censusTable
        headerSubscription.cancel()
        return census
    }

    /// A subscription whose `AnyCancellable` is not kept: its table.
    static func releasedTable() -> String {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let store = Store(AppState())
        recorder.record {
            _ = store.slice(\.unread).sink { _ in }
        }
        return recorder.table
    }

    /// The pictures, by file name without its extension.
    static var pictures: [String: TimelinePicture] {
        [
            "timeline-name-label": TimelinePicture(nameLabel(fixed: false), frame: .milliseconds(250)),
            "timeline-name-label-fixed": TimelinePicture(nameLabel(fixed: true), frame: .milliseconds(250)),
        ]
    }

    /// The texts the article shows in its code blocks marked `<!-- timeline-text: name -->`, by
    /// name.
    static var texts: [String: String] {
        [
            "name-label-table": nameLabel(fixed: false).table,
            "forgotten-census": forgottenSubscriptionCensus(),
            "released-table": releasedTable(),
        ]
    }
}
