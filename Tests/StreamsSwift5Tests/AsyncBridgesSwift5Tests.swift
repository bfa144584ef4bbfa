import Streams
import Testing

// async/await code written against Combine's bridges the way apps write it, compiled in the Swift 5
// language mode: a main-actor model iterating `values`, awaiting `Future.value`, making futures from
// async closures.

struct Article {
    var title: String
}

struct LoadError: Error, Equatable {}

@MainActor
final class ReaderModel {
    private(set) var titles: [String] = []
    private(set) var failed = false

    func read(_ articles: AnyPublisher<Article, Never>) async {
        for await article in articles.values {
            titles.append(article.title)
        }
    }

    func read(_ articles: AnyPublisher<Article, LoadError>) async {
        do {
            for try await article in articles.values {
                titles.append(article.title)
            }
        } catch {
            failed = error is LoadError
        }
    }

    func headline(_ future: Future<Article, Never>) async {
        titles.append(await future.value.title)
    }
}

func fetchCount() async -> Int { 12 }
func fetchName() async throws -> String { "news" }

@Suite struct AsyncBridgesSwift5Tests {
    @Test @MainActor func mainActorModelIteratesValues() async {
        let model = ReaderModel()
        await model.read([Article(title: "one"), Article(title: "two")].publisher.eraseToAnyPublisher())
        let failing = Just(Article(title: "three")).setFailureType(to: LoadError.self)
            .append(Fail(error: LoadError()))
            .eraseToAnyPublisher()
        await model.read(failing)
        await model.headline(Future { $0(.success(Article(title: "four"))) })
        #expect(model.titles == ["one", "two", "three", "four"])
        #expect(model.failed)
    }

    @Test func futuresFromAsyncClosures() async throws {
        let count = Future { await fetchCount() }
        let name = Future { try await fetchName() }
        #expect(await count.value == 12)
        #expect(try await name.value == "news")
    }
}
