import BenchmarkCore

/// Scenarios 9 by hand: one model of ten properties, observers of one property each, one property
/// written per operation.
extension FloorScenarios {
    /// 9a and 9c. The observers of each property in a list of their own, and each property's last
    /// value: a write compares once and calls the due observers' stored closures (scenario 2b's floor).
    public static func propertyObservers(observers: Int, writes: Int, probe: Probe) -> Int {
        slices(observers: observers, updates: writes, probe: probe)
    }

    /// 9b. Ten properties whose willSet notifies one hand-written list of every observer.
    public static func tenPublished(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenProperties()
        let tally = Tally()
        for _ in 0..<observers { model.observe(opaque { tally.add(1) }) }
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            model.set(field, to: value)
        }
        probe.stop()
        return tally.checksum
    }
}

/// Scenario 9b: ten properties and an observer list notified before each write.
final class TenProperties {
    private var observers: [() -> Void] = []

    var f0 = 0 { willSet { notify() } }
    var f1 = 0 { willSet { notify() } }
    var f2 = 0 { willSet { notify() } }
    var f3 = 0 { willSet { notify() } }
    var f4 = 0 { willSet { notify() } }
    var f5 = 0 { willSet { notify() } }
    var f6 = 0 { willSet { notify() } }
    var f7 = 0 { willSet { notify() } }
    var f8 = 0 { willSet { notify() } }
    var f9 = 0 { willSet { notify() } }

    func observe(_ observer: @escaping () -> Void) {
        observers.append(observer)
    }

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

    private func notify() {
        for observer in observers { observer() }
    }
}
