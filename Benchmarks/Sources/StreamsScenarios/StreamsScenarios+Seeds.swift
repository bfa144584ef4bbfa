import BenchmarkCore
import Streams

/// Scenarios 11: the seeds' store, observed naively and through the two cures.
extension StreamsScenarios {
    /// 11a. The naive store: every observer hears every change on `objectWillChange` and re-reads
    /// its own part.
    public static func naiveStore(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenPublished()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            model.objectWillChange.sink { SeedsWork.render(model.field(field), into: tally) }
                .store(in: &cancellables)
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

    /// 11b. Each observer through its own `Deduplicated` wrapper, on a snapshot of its part,
    /// compared right after each change: only the observers whose part changed hear of it.
    public static func deduplicatedObservers(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenPublished()
        let tally = Tally()
        var wrappers: [Deduplicated<TenPublished, Int>] = []
        var cancellables: [AnyCancellable] = []
        wrappers.reserveCapacity(observers)
        cancellables.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            let wrapper = Deduplicated(model) { $0.field(field) }
            wrapper.objectWillChange.sink { SeedsWork.render(wrapper.snapshot, into: tally) }
                .store(in: &cancellables)
            wrappers.append(wrapper)
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

    /// 11c. Each observer holds the latest value of its part in an `ObservedPublisher` following a
    /// `map` + `removeDuplicates` slice of a `CurrentValueSubject` store; the checksum adds every
    /// wrapper's value after each write.
    public static func observedPublishers(observers: Int, writes: Int, probe: Probe) -> Int {
        let store = CurrentValueSubject<State10, Never>(State10())
        let tally = Tally()
        var wrappers: [ObservedPublisher<Int>] = []
        wrappers.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            wrappers.append(
                ObservedPublisher(publisher: store.map { $0.field(field) }.removeDuplicates(), initial: 0))
        }
        var state = State10()
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            state.set(field, to: value)
            store.send(state)
        }
        probe.stop()
        for wrapper in wrappers { SeedsWork.render(wrapper.wrappedValue, into: tally) }
        return tally.checksum
    }
}

extension TenPublished: TenFields {}
