import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

// The worked examples of the marble APIs' documentation, run as written, so that the documentation
// cannot drift from the behaviour.

private struct Offline: Error, Equatable {}
private struct Corrupt: Error, Equatable {}
private struct Disconnected: Error, Equatable {}
private struct SensorFault: Error, Equatable {}

/// The tutorial's search model (Docs/Streams.docc/Resources/TestTimeWithoutWaiting/test-time-model-03.swift).
private final class TutorialSearchModel {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()

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

@Suite struct MarbleDocumentationExampleTests {
    @Test func coldWithValues() {
        let scheduler = DispatchQueue.test
        let prices = scheduler.createColdPublisher(marbles: "-a-(bc)|", values: ["a": 9.5, "b": 9.75, "c": 10])
        let recorder = scheduler.record(prices)
        scheduler.advance(by: .seconds(10))
        #expect(
            recorder.events == [
                .subscription(at: .zero),
                .value(9.5, at: .seconds(1)),
                .value(9.75, at: .seconds(3)),
                .value(10, at: .seconds(3)),
                .finished(at: .seconds(7)),
            ])
    }

    @Test func coldWithValuesAndError() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher(marbles: "--a#", values: ["a": 200], error: Offline())
        #expect(scheduler.marbles(of: request.retry(1), values: ["a": 200]) == "--a--a#")
    }

    @Test func coldStrings() {
        let scheduler = DispatchQueue.test
        let letters = scheduler.createColdPublisher(marbles: "a-b-|")
        #expect(scheduler.marbles(of: letters.map { $0.uppercased() }) == "A-B-|")
    }

    @Test func coldStringsWithError() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher(marbles: "-a-#", error: Offline())
        #expect(scheduler.marbles(of: request.replaceError(with: "z")) == "-a-(z|)")
    }

    @Test func coldLossless() {
        let scheduler = DispatchQueue.test
        let digits = scheduler.createColdPublisher(marbles: "1-2-(3|)", outputType: Int.self)
        #expect(scheduler.marbles(of: digits.scan(0, +)) == "1-3-(6|)")
    }

    @Test func coldLosslessWithError() {
        let scheduler = DispatchQueue.test
        let bytes = scheduler.createColdPublisher(marbles: "ab#", outputType: Character.self, error: Corrupt())
        #expect(scheduler.marbles(of: bytes) == "ab#")
    }

    @Test func hotWithValues() {
        let scheduler = DispatchQueue.test
        let clicks = scheduler.createHotPublisher(marbles: "-x-^-a--b", values: ["x": 0, "a": 1, "b": 2])
        let recorder = scheduler.record(clicks)
        scheduler.advance(by: .seconds(10))
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(2)), Recorded(2, at: .seconds(5))])
    }

    @Test func hotWithValuesAndError() {
        let scheduler = DispatchQueue.test
        let socket = scheduler.createHotPublisher(
            marbles: "^-a-b-#", values: ["a": "hello", "b": "bye"], error: Disconnected())
        #expect(scheduler.marbles(of: socket, values: ["a": "hello", "b": "bye"]) == "--a-b-#")
    }

    @Test func hotStrings() {
        let scheduler = DispatchQueue.test
        let typing = scheduler.createHotPublisher(marbles: "a-^-b-c|")
        #expect(scheduler.marbles(of: typing) == "--b-c|")
    }

    @Test func hotStringsWithError() {
        let scheduler = DispatchQueue.test
        let socket = scheduler.createHotPublisher(marbles: "-a-#", error: Disconnected())
        #expect(scheduler.marbles(of: socket) == "-a-#")
    }

    @Test func hotLossless() {
        let scheduler = DispatchQueue.test
        let readings = scheduler.createHotPublisher(marbles: "^1-5-3|", outputType: Int.self)
        #expect(scheduler.marbles(of: readings.filter { $0 > 2 }) == "---5-3|")
    }

    @Test func hotLosslessWithError() {
        let scheduler = DispatchQueue.test
        let sensor = scheduler.createHotPublisher(marbles: "1-2-#", outputType: Int.self, error: SensorFault())
        #expect(scheduler.marbles(of: sensor.map { $0 * 2 }) == "2-4-#")
    }

    @Test func recorderMarbles() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record([1, 2, 30].publisher.delay(for: .seconds(2), scheduler: scheduler))
        scheduler.advance(by: .seconds(5))
        #expect(recorder.marbles() == "--(12?|)  (? at column 6: 30)")
    }

    @Test func recorderMarblesWithValues() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(Just(true).delay(for: .seconds(1), scheduler: scheduler))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.marbles(values: ["t": true, "f": false]) == "-(t|)")
    }

    @Test func debouncesKeystrokes() {
        let scheduler = DispatchQueue.test
        let keys = scheduler.createHotPublisher(marbles: "ab---c---|")
        let debounced = keys.debounce(for: .seconds(2), scheduler: scheduler)
        #expect(scheduler.marbles(of: debounced) == "---b---c-|")
    }

    @Test func timesOutWhenTheServerIsSlow() {
        let scheduler = DispatchQueue.test
        let server = scheduler.createColdPublisher(marbles: "-a----b|", values: ["a": 1, "b": 2])
        let answer = server.timeout(.seconds(3), scheduler: scheduler)
        #expect(scheduler.marbles(of: answer, values: ["a": 1, "b": 2]) == "-a--|")
    }

    @Test func delaysByTwoFrames() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "-a-b|")
        scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a-b|")
    }

    @Test func mergesTwoSensors() {
        let scheduler = DispatchQueue.test
        let values: [Character: Double] = ["a": 20.5, "b": 21, "x": -3]
        let inside = scheduler.createHotPublisher(marbles: "a---b", values: values)
        let outside = scheduler.createHotPublisher(marbles: "--x", values: values)
        scheduler.expect(inside.merge(with: outside), marbles: "a-x-b", values: values)
    }

    @Test func doublesEachDigit() {
        let scheduler = DispatchQueue.test
        let digits = scheduler.createColdPublisher(marbles: "1-2-3|", outputType: Int.self)
        expectMarbles(scheduler.marbles(of: digits.map { $0 * 2 }), "2-4-6|")
        let wrong = DispatchQueue.test
        let same = wrong.createColdPublisher(marbles: "1-2-3|", outputType: Int.self)
        withKnownIssue {
            expectMarbles(wrong.marbles(of: same.map { $0 == 1 ? 2 : $0 }), "2-4-6|")
        } matching: { issue in
            issue.comments.map(\.rawValue) == [
                """
                Marble diagrams differ at column 3:
                expected: 2-4-6|
                actual:   2-2-3|
                            ^
                """
            ]
        }
    }

    @Test func subscriptionMarbles() {
        let subscription = RecordedSubscription<DispatchQueue.SchedulerTimeType.Stride>(
            subscribed: .seconds(2), cancelled: .seconds(5))
        #expect(subscription.marbles() == "--^--!")
    }

    @Test func coldSubscriptionMarbles() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher(marbles: "--#", error: URLError(.timedOut))
        _ = scheduler.marbles(of: request.retry(1))
        #expect(request.subscriptionMarbles() == ["^", "--^"])
    }

    @Test func timeoutCancelsTheSlowRequest() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher(marbles: "-----a|")
        scheduler.expect(request.timeout(.seconds(3), scheduler: scheduler), marbles: "---|")
        request.expectSubscriptions(["^--!"])
    }

    @Test func hotSubscriptionMarbles() {
        let scheduler = DispatchQueue.test
        let clicks = scheduler.createHotPublisher(marbles: "a-b-c-d")
        let recorder = scheduler.record(clicks.prefix(2))
        scheduler.advance(by: .seconds(10))
        #expect(recorder.marbles() == "a-(b|)")
        #expect(clicks.subscriptionMarbles() == ["^-!"])
    }

    @Test func switchesToTheLatestSearch() {
        let scheduler = DispatchQueue.test
        let first = scheduler.createHotPublisher(marbles: "-a-b-c")
        let second = scheduler.createHotPublisher(marbles: "---x-y")
        let searches = scheduler.createHotPublisher(marbles: "f-s", values: ["f": first, "s": second])
        scheduler.expect(searches.switchToLatest(), marbles: "-a-x-y")
        first.expectSubscriptions(["^-!"])
        second.expectSubscriptions(["--^"])
    }

    // MARK: The article's section "Draw time: marble diagrams" and the tutorial's last step

    @Test func articleDebouncesKeystrokes() {
        let scheduler = DispatchQueue.test
        let typing = scheduler.createHotPublisher(marbles: "-ab---c-d----|")
        let searches = typing.debounce(for: .seconds(3), scheduler: scheduler)
        scheduler.expect(searches, marbles: "-----b-----d-|")
    }

    @Test func articleRetriesOnceAfterAFailure() {
        let scheduler = DispatchQueue.test
        let pages: [Character: [String]] = ["p": ["Pilot", "Finale"]]
        let request = scheduler.createColdPublisher(marbles: "--#", values: pages, error: Offline())
        let retried = scheduler.createColdPublisher(marbles: "-p|", values: pages, error: Offline())
        let refresh = request.catch { _ in retried }
        scheduler.expect(refresh, marbles: "---p|", values: pages)
    }

    @Test func articleANewSearchCancelsTheOneInFlight() {
        let scheduler = DispatchQueue.test
        let first = scheduler.createColdPublisher(marbles: "a-b---c|")
        let second = scheduler.createColdPublisher(marbles: "-e--f|")
        let searches = scheduler.createHotPublisher(
            marbles: "-1---2------|", values: ["1": first, "2": second])
        scheduler.expect(searches.switchToLatest(), marbles: "-a-b--e--f--|")
        first.expectSubscriptions(["-^---!"])
        second.expectSubscriptions(["-----^"])
    }

    @Test func tutorialDrawsTheWholeSession() {
        let scheduler = DispatchQueue.test
        let frame: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)
        let queries: [Character: String] = ["1": "s", "2": "sw", "3": "swif"]
        let answers: [Character: [String]] = ["e": [], "r": ["swift", "swiftui"]]
        let typing = scheduler.createHotPublisher(marbles: "1-2-----3", values: queries, frame: frame)
        let server = scheduler.createColdPublisher(marbles: "-------r|", values: answers, frame: frame)
        let model = TutorialSearchModel(
            search: { _ in server.eraseToAnyPublisher() },
            scheduler: scheduler.eraseToAnyScheduler()
        )
        typing.assign(to: &model.$query)

        scheduler.expect(model.$results, marbles: "e-----------------r", values: answers, frame: frame)
        server.expectSubscriptions(["-----^-----!", "-----------^"], frame: frame)
    }
}
