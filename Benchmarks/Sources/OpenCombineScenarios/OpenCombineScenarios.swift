import BenchmarkCore
import Dispatch
import OpenCombine
import OpenCombineDispatch

/// The scenarios written against OpenCombine 0.14.0.
public enum OpenCombineScenarios {
    /// 1. PassthroughSubject → map → filter → removeDuplicates → sink.
    public static func pipeline(values: Int, probe: Probe) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable =
            subject
            .map { PipelineWork.transform($0) }
            .filter { PipelineWork.isIncluded($0) }
            .removeDuplicates()
            .sink { tally.chain($0) }
        probe.start()
        for index in 0..<values { subject.send(PipelineWork.input(index)) }
        probe.stop()
        cancellable.cancel()
        subject.send(1)  // nobody listens any more
        return tally.checksum
    }

    /// 2. A CurrentValueSubject of a 10-field state; each subscriber maps its field and drops
    /// repeats. Every update changes one field.
    public static func fanOut(subscribers: Int, updates: Int, probe: Probe) -> Int {
        var state = State10()
        let subject = CurrentValueSubject<State10, Never>(state)
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(subscribers)
        for index in 0..<subscribers {
            subject
                .map(State10.getters[index % State10.fieldCount])
                .removeDuplicates()
                .sink { tally.add($0) }
                .store(in: &cancellables)
        }
        tally.reset()
        probe.start()
        for update in 0..<updates {
            let (field, value) = State10.update(update)
            state.set(field, to: value)
            subject.send(state)
        }
        probe.stop()
        cancellables.removeAll()
        return tally.checksum
    }

    /// 2'. OpenCombine has no slice API: the same observers as map + removeDuplicates chains.
    public static func slices(observers: Int, updates: Int, probe: Probe) -> Int {
        fanOut(subscribers: observers, updates: updates, probe: probe)
    }

    /// 3. Subscribe map + sink, then cancel; every 1024th subscription receives one value first.
    public static func subscribeCancel(pairs: Int, probe: Probe) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        probe.start()
        for index in 0..<pairs {
            let cancellable = subject.map { $0 &+ 1 }.sink { tally.add($0) }
            if index & 1023 == 0 { subject.send(index) }
            cancellable.cancel()
        }
        probe.stop()
        subject.send(-1)  // every subscription is cancelled: nobody receives this
        return tally.checksum
    }

    /// 4. receive(on:) a serial DispatchQueue; the sink signals a semaphore on completion.
    public static func receiveOn(values: Int, probe: Probe) -> Int {
        let queue = DispatchQueue(label: "benchmarks.opencombine.receive-on")
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let done = DispatchSemaphore(value: 0)
        let cancellable =
            subject
            .receive(on: queue.ocombine)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { tally.chain($0) })
        probe.start()
        for value in 0..<values { subject.send(value) }
        subject.send(completion: .finished)
        done.wait()
        probe.stop()
        cancellable.cancel()
        return tally.checksum
    }

    /// 5. Writes to an ObservableObject's five @Published properties with objectWillChange observers.
    public static func published(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = FiveProperties()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        for _ in 0..<observers {
            model.objectWillChange.sink { tally.add(1) }.store(in: &cancellables)
        }
        probe.start()
        for write in 0..<writes {
            switch write % 5 {
            case 0: model.a = write
            case 1: model.b = write
            case 2: model.c = write
            case 3: model.d = write
            default: model.e = write
            }
        }
        probe.stop()
        cancellables.removeAll()
        return tally.checksum &+ model.a &+ model.b &* 3 &+ model.c &* 5 &+ model.d &* 7 &+ model.e &* 11
    }

    /// 6a. One sink per subject, kept with store(in:) in a Set<AnyCancellable>, then released.
    public static func storedSubscriptions(count: Int, probe: Probe) -> Int {
        let subjects = (0..<count).map { _ in PassthroughSubject<Int, Never>() }
        let tally = Tally()
        var cancellables = Set<AnyCancellable>()
        probe.start()
        for subject in subjects { subject.sink { tally.add($0) }.store(in: &cancellables) }
        probe.stop()
        for index in stride(from: 0, to: count, by: 100) { subjects[index].send(index) }
        probe.start()
        cancellables = []
        probe.stop()
        for index in stride(from: 0, to: count, by: 100) { subjects[index].send(-1) }
        return tally.checksum
    }

    /// 6b. Many sinks on one subject, kept in a Set<AnyCancellable>, then released.
    public static func oneSubject(subscribers: Int, probe: Probe) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        var cancellables = Set<AnyCancellable>()
        probe.start()
        for _ in 0..<subscribers { subject.sink { tally.add($0) }.store(in: &cancellables) }
        probe.stop()
        subject.send(3)
        probe.start()
        cancellables = []
        probe.stop()
        subject.send(-1)
        return tally.checksum
    }

    /// 7. Several threads send into one PassthroughSubject at once; every subscriber is a sink.
    public static func contention(threads: Int, valuesPerThread: Int, subscribers: Int, probe: Probe) -> Int {
        let rig = ContentionRig(threads: threads, valuesPerThread: valuesPerThread, subscribers: subscribers)
        let subject = PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        for receiver in rig.receivers {
            subject.sink { receiver.receive($0) }.store(in: &cancellables)
        }
        let checksum = rig.run(probe: probe) { subject.send($0) }
        cancellables.removeAll()
        return checksum
    }

    /// 8a. OpenCombine 0.14.0 has no `merge` (no `Publishers.Merge*` or `MergeMany`): the eight
    /// subjects are merged the way one does without it, by `flatMap` over a sequence of them (its
    /// default `maxPublishers` is `.unlimited`, so it subscribes to all eight).
    public static func merge(values: Int, probe: Probe) -> Int {
        let subjects = (0..<CombiningWork.mergeUpstreams).map { _ in PassthroughSubject<Int, Never>() }
        let tally = Tally()
        let cancellable = subjects.publisher
            .flatMap { $0 }
            .sink { tally.add($0) }
        probe.start()
        for index in 0..<values { subjects[index % CombiningWork.mergeUpstreams].send(index) }
        probe.stop()
        cancellable.cancel()
        return tally.checksum
    }

    /// 8c. zip of two subjects, values sent alternately.
    public static func zip(values: Int, probe: Probe) -> Int {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = first.zip(second)
            .sink { tally.chain(CombiningWork.combine($0, $1)) }
        probe.start()
        for index in 0..<values {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        probe.stop()
        cancellable.cancel()
        return tally.checksum
    }

    /// 8d. `share()` of one subject with `subscribers` sinks.
    public static func share(subscribers: Int, values: Int, probe: Probe) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let tally = Tally()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(subscribers)
        for _ in 0..<subscribers { shared.sink { tally.add($0) }.store(in: &cancellables) }
        probe.start()
        for index in 0..<values { subject.send(index) }
        probe.stop()
        cancellables.removeAll()
        return tally.checksum
    }
}

/// Scenario 5's model.
final class FiveProperties: ObservableObject {
    @Published var a = 0
    @Published var b = 0
    @Published var c = 0
    @Published var d = 0
    @Published var e = 0
}
