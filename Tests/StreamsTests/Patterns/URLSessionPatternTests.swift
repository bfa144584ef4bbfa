import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `dataTaskPublisher(for:)` replacement that "Differences from Combine" shows, checked against a
/// `data:` URL so that no network is needed.
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
    @Test func dataTaskPatternPublishesTheDataOfEachSubscription() {
        let url = URL(string: "data:text/plain;base64,SGVsbG8=")!
        let publishers = [
            URLSession.shared.patternDataTaskPublisher(for: url).map(\.data),
            URLSession.shared.patternAsyncDataPublisher(for: url).map(\.data),
        ]
        for publisher in publishers + publishers {
            let done = DispatchSemaphore(value: 0)
            let subscriber = TestSubscriber<Data, URLError>()
            subscriber.onReceiveValue { _ in done.signal() }
            publisher.subscribe(subscriber)
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(subscriber.values == [Data("Hello".utf8)])
        }
    }
}
