import BenchmarkCore
import OpenCombine

/// Scenarios 11: the seeds' store, observed naively and through the two cures, which OpenCombine does
/// not have: they are built from its primitives as the articles build them.
extension OpenCombineScenarios {
    /// 11a. The naive store: every observer hears every change on `objectWillChange` and re-reads
    /// its own part.
    public static func naiveStore(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenPublished()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            model.objectWillChange.sink { _ in SeedsWork.render(model.field(field), into: tally) }
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

    /// 11b. Each observer through its own deduplicating wrapper: the article's chain (a snapshot
    /// after each change, `prepend` the first, `removeDuplicates`, `dropFirst`), fed by a did-change
    /// signal the model sends after each write so that it compares synchronously.
    public static func deduplicatedObservers(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = SeedsAppState()
        let tally = Tally()
        var wrappers: [DeduplicatedWrapper<Int>] = []
        var cancellables: [AnyCancellable] = []
        wrappers.reserveCapacity(observers)
        cancellables.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            let wrapper = DeduplicatedWrapper(changes: model.didChange) { [unowned model] in model.field(field) }
            wrapper.objectWillChange.sink { _ in SeedsWork.render(wrapper.snapshot, into: tally) }
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

    /// 11c. Each observer holds the latest value of its part in a wrapper that assigns a `map` +
    /// `removeDuplicates` slice of a `CurrentValueSubject` store to a `@Published` property, as
    /// SwiftUIX's `ObservedPublisher` does.
    public static func observedPublishers(observers: Int, writes: Int, probe: Probe) -> Int {
        let store = CurrentValueSubject<State10, Never>(State10())
        let tally = Tally()
        var wrappers: [LatestValue<Int>] = []
        wrappers.reserveCapacity(observers)
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            wrappers.append(LatestValue(publisher: store.map { $0.field(field) }.removeDuplicates(), initial: 0))
        }
        var state = State10()
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            state.set(field, to: value)
            store.send(state)
        }
        probe.stop()
        for wrapper in wrappers { SeedsWork.render(wrapper.value, into: tally) }
        return tally.checksum
    }
}

extension TenPublished: TenFields {}

/// Scenario 11b's model: scenario 9b's, with a did-change signal sent after each write.
final class SeedsAppState: ObservableObject {
    let model = TenPublished()
    let didChange = PassthroughSubject<Void, Never>()

    func field(_ index: Int) -> Int { model.field(index) }

    func set(_ field: Int, to value: Int) {
        model.set(field, to: value)
        didChange.send()
    }
}

/// The seeds' `Deduplicated`, from OpenCombine's primitives.
final class DeduplicatedWrapper<Snapshot: Equatable>: ObservableObject {
    let objectWillChange = ObservableObjectPublisher()
    private(set) var snapshot: Snapshot
    private var subscription: AnyCancellable?

    init(changes: PassthroughSubject<Void, Never>, snapshot makeSnapshot: @escaping () -> Snapshot) {
        snapshot = makeSnapshot()
        subscription = changes.map { _ in makeSnapshot() }
            .prepend(makeSnapshot())
            .removeDuplicates()
            .dropFirst()
            .sink { [weak self] in
                self?.snapshot = $0
                self?.objectWillChange.send()
            }
    }
}

/// The seeds' `ObservedPublisher`, from OpenCombine's primitives.
final class LatestValue<Value>: ObservableObject {
    @Published private(set) var value: Value
    private var subscription: AnyCancellable?

    init<P: Publisher>(publisher: P, initial: Value) where P.Output == Value, P.Failure == Never {
        value = initial
        subscription = publisher.sink { [weak self] in self?.value = $0 }
    }
}
