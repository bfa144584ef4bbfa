import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The two ways people bridge a data task to a publisher by hand (a completion handler, and
/// `async`-`await`, each through `Deferred` and `Future`), checked against a `data:` URL so that no
/// network is needed. (StreamsNetworking's `dataTaskPublisher` is tested on its own.)
extension URLSession {
    fileprivate func patternDataTaskPublisher(for url: URL) -> AnyPublisher<
        (data: Data, response: URLResponse), URLError
    > {
        Deferred {
            Future { promise in
                nonisolated(unsafe) let promise = promise  // Called once, from the session's queue.
                self.dataTask(with: url) { data, response, error in
                    if let data, let response {
                        promise(.success((data, response)))
                    } else {
                        promise(.failure(error as? URLError ?? URLError(.unknown)))
                    }
                }.resume()
            }
        }
        .eraseToAnyPublisher()
    }

    fileprivate func patternAsyncDataPublisher(for url: URL) -> AnyPublisher<
        (data: Data, response: URLResponse), URLError
    > {
        Deferred {
            Future { try await self.data(from: url) }
        }
        .mapError { $0 as? URLError ?? URLError(.unknown) }
        .map { (data: $0.0, response: $0.1) }
        .eraseToAnyPublisher()
    }
}

@Suite struct URLSessionPatternTests {
    /// Awaits rather than blocks: the async pattern's task needs a thread of the cooperative pool,
    /// which a blocking wait in a test could be holding.
    @Test func dataTaskPatternPublishesTheDataOfEachSubscription() async throws {
        let url = URL(string: "data:text/plain;base64,SGVsbG8=")!
        let publishers = [
            URLSession.shared.patternDataTaskPublisher(for: url).map(\.data),
            URLSession.shared.patternAsyncDataPublisher(for: url).map(\.data),
        ]
        for publisher in publishers + publishers {
            var received: [Data] = []
            for try await data in publisher.values { received.append(data) }
            #expect(received == [Data("Hello".utf8)])
        }
    }
}
