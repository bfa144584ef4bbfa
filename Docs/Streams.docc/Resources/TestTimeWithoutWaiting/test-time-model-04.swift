import Dispatch
import Streams

/// Searches for what the user types, once they pause typing.
final class SearchModel {
    /// What the user has typed so far.
    @Published var query = ""
    /// The results of the latest search.
    @Published private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()

    /// Creates a model that calls `search` with each query the user settles on, and

    /// shows its results on `scheduler`.
    init(
        search: @escaping (String) -> AnyPublisher<[String], Never>,
        scheduler: AnySchedulerOf<DispatchQueue> = .main
    ) {
        $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map(search)
            .switchToLatest()
            .receive(on: scheduler)
            .sink { [weak self] results in self?.results = results }
            .store(in: &cancellables)
    }
}

extension SearchModel {
    /// Creates a model whose searches are `async` functions, such as a ``SearchService``'s.
    convenience init(
        search: @escaping @Sendable (String) async -> [String],
        scheduler: AnySchedulerOf<DispatchQueue> = .main
    ) {
        self.init(
            search: { query in Future { await search(query) }.eraseToAnyPublisher() },
            scheduler: scheduler
        )
    }
}
