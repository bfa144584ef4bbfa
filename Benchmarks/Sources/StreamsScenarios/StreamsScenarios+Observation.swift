import BenchmarkCore
import Streams

/// Scenarios 9: one model of ten properties, observers of one property each, one property written
/// per operation.
extension StreamsScenarios {
    /// 9b. The ten properties as `@Published` properties of an `ObservableObject`, observed through
    /// `objectWillChange`: every write notifies every observer.
    public static func tenPublished(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenPublished()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(observers)
        for _ in 0..<observers {
            model.objectWillChange.sink { tally.add(1) }.store(in: &cancellables)
        }
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            model.set(field, to: value)
        }
        probe.stop()
        cancellables.removeAll()
        return tally.checksum
    }
}

/// Scenario 9b's model.
final class TenPublished: ObservableObject {
    @Published var f0 = 0
    @Published var f1 = 0
    @Published var f2 = 0
    @Published var f3 = 0
    @Published var f4 = 0
    @Published var f5 = 0
    @Published var f6 = 0
    @Published var f7 = 0
    @Published var f8 = 0
    @Published var f9 = 0

    func set(_ field: Int, to value: Int) {
        switch field {
        case 0: f0 = value
        case 1: f1 = value
        case 2: f2 = value
        case 3: f3 = value
        case 4: f4 = value
        case 5: f5 = value
        case 6: f6 = value
        case 7: f7 = value
        case 8: f8 = value
        default: f9 = value
        }
    }
}
