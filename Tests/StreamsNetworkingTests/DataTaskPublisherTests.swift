import StreamsNetworking
import StreamsTesting
import Testing

/// `dataTaskPublisher(for:)` against a real HTTP server on 127.0.0.1 that each test starts.
@Suite(.timeLimit(.minutes(1))) struct DataTaskPublisherTests {
    struct Person: Decodable, Equatable {
        var name: String
        var unread: Int
    }

    /// What a publisher delivered to a sink, once it completed.
    struct Outcome<Output> {
        var values: [Output]
        var completion: Subscribers.Completion<URLError>
    }

    /// The values a sink receives, kept under a lock: the session delivers on its own queue.
    final class Collected<Output>: @unchecked Sendable {
        // @unchecked: `values` and `cancellable` are guarded by `lock`.
        private let lock = NSLock()
        private var stored: [Output] = []
        private var cancellable: AnyCancellable?

        var values: [Output] { lock.withLock { stored } }

        func append(_ value: Output) { lock.withLock { stored.append(value) } }

        func keep(_ cancellable: AnyCancellable) { lock.withLock { self.cancellable = cancellable } }
    }

    /// Subscribes a sink and waits, without blocking a thread, until the publisher completes.
    func outcome<P: Publisher>(of publisher: P) async -> Outcome<P.Output> where P.Failure == URLError {
        let collected = Collected<P.Output>()
        let completion = await withCheckedContinuation { continuation in
            collected.keep(
                publisher.sink(
                    receiveCompletion: { continuation.resume(returning: $0) },
                    receiveValue: { collected.append($0) }))
        }
        return Outcome(values: collected.values, completion: completion)
    }

    func status(_ response: URLResponse) -> Int? {
        (response as? HTTPURLResponse)?.statusCode
    }

    @Test func publishesTheDataAndTheResponseThenFinishes() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let result = await outcome(
            of: URLSession.shared.dataTaskPublisher(for: server.url("/hello")).map {
                ($0.data, self.status($0.response))
            })
        #expect(result.values.map(\.0) == [Data("Hello".utf8)])
        #expect(result.values.map(\.1) == [200])
        #expect(result.completion == .finished)
    }

    @Test func anHTTPErrorStatusIsAValueNotAFailure() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/missing"))
        let result = await outcome(
            of: URLSession.shared.dataTaskPublisher(for: request).map { ($0.data, self.status($0.response)) })
        #expect(result.values.map(\.0) == [Data("nope".utf8)])
        #expect(result.values.map(\.1) == [404])
        #expect(result.completion == .finished)
    }

    @Test func aRefusedConnectionFailsWithAURLError() async throws {
        let port = try LoopbackHTTPServer.closedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/hello")!
        let result = await outcome(of: URLSession.shared.dataTaskPublisher(for: url).map(\.data))
        #expect(result.values.isEmpty)
        guard case .failure(let error) = result.completion else {
            Issue.record("a refused connection should fail, not \(result.completion)")
            return
        }
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func decodesTheBodyWhenChainedWithDecode() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let people = URLSession.shared.dataTaskPublisher(for: server.url("/json"))
            .map(\.data)
            .decode(type: Person.self, decoder: JSONDecoder())
            .mapError { $0 as? URLError ?? URLError(.cannotDecodeContentData) }
        let result = await outcome(of: people)
        #expect(result.values == [Person(name: "Ada", unread: 3)])
        #expect(result.completion == .finished)
    }

    @Test func retryStartsANewTaskForEachAttempt() async throws {
        let server = try LoopbackHTTPServer(flakyFailures: 2)
        defer { server.stop() }
        let result = await outcome(
            of: URLSession.shared.dataTaskPublisher(for: server.url("/flaky")).retry(2).map(\.data))
        #expect(result.values == [Data("recovered".utf8)])
        #expect(result.completion == .finished)
        #expect(server.requestedPaths == ["/flaky", "/flaky", "/flaky"])
    }

    @Test func theTaskStartsOnTheFirstRequestOneTaskPerSubscription() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let publisher = URLSession.shared.dataTaskPublisher(for: server.url("/hello"))
        let idle = TestSubscriber<(data: Data, response: URLResponse), URLError>(initialDemand: .none)
        publisher.subscribe(idle)
        #expect(idle.subscription.map(String.init(describing:)) == "DataTaskPublisher")
        for _ in 0..<2 {
            let result = await outcome(of: publisher.map(\.data))
            #expect(result.values == [Data("Hello".utf8)], "\(String(describing: result.completion))")
        }
        #expect(server.requestedPaths == ["/hello", "/hello"], "the idle subscription asked for nothing, so no task")
        idle.cancel()
    }

    @Test func cancellingMidRequestDeliversNothingAndLetsGoOfTheSubscriber() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        weak var weakSubscriber: TestSubscriber<(data: Data, response: URLResponse), URLError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<(data: Data, response: URLResponse), URLError>()
            weakSubscriber = subscriber
            URLSession.shared.dataTaskPublisher(for: server.url("/hang")).subscribe(subscriber)
            subscription = subscriber.subscription
        }
        while server.requestedPaths.isEmpty { await Task.yield() }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil, "cancel lets go of the subscriber at once")
        // A request made afterwards is served, so the cancelled one left nothing behind.
        let result = await outcome(of: URLSession.shared.dataTaskPublisher(for: server.url("/hello")).map(\.data))
        #expect(result.values == [Data("Hello".utf8)])
        #expect(server.requestedPaths == ["/hang", "/hello"])
    }
}
