/// How an observer subscribes to the part of the store it shows.
public enum ObservationWay: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `store.slice(\.part)`: the store compares each distinct slice once per new state.
    case storeSlice
    /// `store.subject.map(\.part).removeDuplicates()`: the observer's own chain compares.
    case mapRemoveDuplicates
    /// `model.deduplicated { $0.state.part }`, around an `ObservableObject` holding the state.
    case deduplicated
    /// A view model whose `@ObservedPublisher` property follows `store.slice(\.part)`.
    case observedPublisher
    /// `store.subject`: the whole state, so every new state wakes the observer.
    case wholeState

    /// The four ways that wake an observer only when its part changed.
    public static let slicing: [ObservationWay] = [
        .storeSlice, .mapRemoveDuplicates, .deduplicated, .observedPublisher,
    ]

    /// The way's name, as the comparison table prints it.
    public var description: String {
        switch self {
        case .storeSlice: "Store.slice"
        case .mapRemoveDuplicates: "map + removeDuplicates"
        case .deduplicated: "Deduplicated"
        case .observedPublisher: "ObservedPublisher"
        case .wholeState: "the whole state"
        }
    }
}
