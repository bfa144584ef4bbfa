import Dispatch
import Streams

/// Searches for what the user types, once they pause typing.
final class SearchModel {
    /// What the user has typed so far.
    @Published var query = ""
    /// Every query the model has searched for, in order.
    private(set) var searches: [String] = []
    private var cancellables = Set<AnyCancellable>()

    init() {
        $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
            .removeDuplicates()
            .sink { [weak self] query in self?.searches.append(query) }
            .store(in: &cancellables)
    }
}
