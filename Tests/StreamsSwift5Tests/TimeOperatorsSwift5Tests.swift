import Foundation
import Streams
import Testing

// Time-based operators and timers used the way Combine code uses them, compiled in the Swift 5
// language mode: `self` captured in sinks, a timer on the main run loop, schedulers passed around.

final class ClockViewModel {
    private(set) var now: Date?
    private(set) var searches: [String] = []
    private(set) var taps: [Int] = []
    private(set) var batches: [[Int]] = []
    let query = PassthroughSubject<String, Never>()
    let tap = PassthroughSubject<Int, Never>()
    private var cancellables = Set<AnyCancellable>()

    init<S: Scheduler>(scheduler: S) {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] in self?.now = $0 }
            .store(in: &cancellables)
        query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .sink { self.searches.append($0) }
            .store(in: &cancellables)
        tap
            .throttle(for: .seconds(1), scheduler: scheduler, latest: false)
            .sink { self.taps.append($0) }
            .store(in: &cancellables)
        tap
            .collect(.byTimeOrCount(scheduler, .seconds(1), 2))
            .sink { self.batches.append($0) }
            .store(in: &cancellables)
    }

    func stop() {
        cancellables.removeAll()
    }
}

@Suite struct TimeOperatorsSwift5Tests {
    @Test func aViewModelWithATimerAndTimedOperators() {
        let model = ClockViewModel(scheduler: ImmediateScheduler.shared)
        model.query.send("swift")
        model.query.send("swift")
        model.tap.send(1)
        model.tap.send(2)
        #expect(model.searches == ["swift"])
        #expect(model.taps == [1, 2])
        #expect(model.batches == [[1, 2]])
        #expect(model.now == nil)  // The main run loop has not run.
        model.stop()
    }

    @Test func aSchedulerTimerConnectedByHand() {
        let timer = DispatchQueue.main.timerPublisher(every: .seconds(1))
        var ticks = 0
        let cancellable = timer.sink { _ in ticks += 1 }
        let connection = timer.connect()
        connection.cancel()
        cancellable.cancel()
        #expect(ticks == 0)
    }
}
