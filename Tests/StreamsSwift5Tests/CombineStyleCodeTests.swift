import Streams
import Testing

// Code written the way Combine code is written, compiled in the Swift 5 language mode: closures that
// capture `self` and mutable state, no Sendable annotations anywhere.

final class CounterViewModel {
    struct State: Equatable {
        var count = 0
        var title = "Counter"
    }

    let state = CurrentValueSubject<State, Never>(State())
    private(set) var renderedTitles: [String] = []
    private(set) var renderedCounts: [Int] = []
    var latestCount = 0
    private var cancellables = Set<AnyCancellable>()

    init() {
        state.map { $0.title }.removeDuplicates().sink { [weak self] title in
            self?.renderedTitles.append(title)
        }.store(in: &cancellables)
        state.map(\.count).removeDuplicates().sink { count in
            self.renderedCounts.append(count)
        }.store(in: &cancellables)
        state.map(\.count).assign(to: \.latestCount, on: self).store(in: &cancellables)
    }

    func increment() {
        state.value.count += 1
    }

    func rename(_ title: String) {
        state.value.title = title
    }

    func stop() {
        cancellables.removeAll()
    }
}

@Suite struct CombineStyleCodeTests {
    @Test func viewModelRendersOnlyWhatChanged() {
        let model = CounterViewModel()
        model.increment()
        model.increment()
        model.rename("Clicks")
        model.rename("Clicks")
        #expect(model.renderedTitles == ["Counter", "Clicks"])
        #expect(model.renderedCounts == [0, 1, 2])
        #expect(model.latestCount == 2)
        model.stop()
        model.increment()
        #expect(model.renderedCounts == [0, 1, 2])
    }

    @Test func viewModelIsReleasedAfterItsSubscriptionsAre() {
        weak var weakModel: CounterViewModel?
        do {
            let model = CounterViewModel()
            weakModel = model
            model.increment()
            model.stop()
        }
        #expect(weakModel == nil)
    }

    @Test func mutableLocalStateInClosures() {
        var log: [String] = []
        let subject = PassthroughSubject<Int, Never>()
        let cancellable =
            subject
            .filter { $0 > 0 }
            .map { "value \($0)" }
            .sink { log.append($0) }
        subject.send(-1)
        subject.send(2)
        cancellable.cancel()
        subject.send(3)
        #expect(log == ["value 2"])
    }
}
