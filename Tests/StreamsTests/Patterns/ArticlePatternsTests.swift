import Foundation
import Streams
import Testing

/// The patterns of the articles Streams grew from, written the way they write them.
@Suite struct ArticlePatternsTests {
    struct Book: Codable, Equatable {
        var title: String
    }

    struct ViewState: Equatable {
        var title = ""
        var isLoading = false
    }

    struct AppState {
        var viewState = ViewState()
        var unrelated = 0
    }

    final class Store {
        let subject = CurrentValueSubject<AppState, Never>(AppState())

        var viewState: AnyPublisher<ViewState, Never> {
            subject.map { $0.viewState }.removeDuplicates().eraseToAnyPublisher()
        }
    }

    @Test func sliceOfTheStateNotifiesOnlyWhenItChanges() {
        let store = Store()
        var cancellables = Set<AnyCancellable>()
        var rendered: [ViewState] = []
        store.viewState.sink { rendered.append($0) }.store(in: &cancellables)
        store.subject.value.unrelated += 1
        store.subject.value.viewState.isLoading = true
        store.subject.value.unrelated += 1
        store.subject.value.viewState.title = "Books"
        #expect(
            rendered == [
                ViewState(), ViewState(title: "", isLoading: true), ViewState(title: "Books", isLoading: true),
            ])
    }

    @Test func decodeWithAFallback() throws {
        let data = try JSONEncoder().encode([Book(title: "Dune")])
        var books: [Book] = []
        let cancellable = Just(data).decode(type: [Book].self, decoder: JSONDecoder()).replaceError(with: [])
            .sink { books = $0 }
        #expect(books == [Book(title: "Dune")])

        var fallback: [Book]?
        let broken = Just(Data("not json".utf8)).decode(type: [Book].self, decoder: JSONDecoder())
            .replaceError(with: []).sink { fallback = $0 }
        #expect(fallback == [])
        _ = (cancellable, broken)
    }

    @Test func prependRemoveDuplicatesDropFirstSeesOnlyChanges() {
        let subject = PassthroughSubject<Int, Never>()
        let current = 5
        var changes: [Int] = []
        var cancellables = Set<AnyCancellable>()
        subject.prepend(current).removeDuplicates().dropFirst().sink { changes.append($0) }.store(in: &cancellables)
        subject.send(5)
        subject.send(6)
        subject.send(6)
        subject.send(5)
        #expect(changes == [6, 5])
    }

    @Test func storeInCancellablesKeepsSubscriptionsAlive() {
        let subject = PassthroughSubject<String, Never>()
        var cancellables = Set<AnyCancellable>()
        var received: [String] = []
        subject.sink { received.append($0) }.store(in: &cancellables)
        subject.map { $0.uppercased() }.sink { received.append($0) }.store(in: &cancellables)
        subject.send("a")
        cancellables.removeAll()
        subject.send("b")
        #expect(received == ["a", "A"])
    }
}
