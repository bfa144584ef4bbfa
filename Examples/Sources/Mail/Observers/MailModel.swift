import Streams

/// The store's state, republished by an `ObservableObject`, as a view model over the store would.
///
/// Every new state changes ``state``, so `objectWillChange` fires for every write: this is the
/// object that `Deduplicated` wraps, once per observer, to forward only the changes of what that
/// observer shows.
final class MailModel: ObservableObject {
    /// The store's latest state.
    @Published private(set) var state: MailState

    /// Follows a store's state for as long as the model lives.
    ///
    /// - Parameter store: The store to follow.
    init(store: Store<MailState>) {
        state = store.state
        store.subject.assign(to: &$state)
    }
}
