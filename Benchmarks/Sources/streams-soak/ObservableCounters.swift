import Dispatch
import Observation
import Streams
import Synchronization

/// The model of the Observation bridge workload: an `Observable` model with four counters, each
/// written by one sender thread (counter `i` by sender `i`) with 1, 2, 3, ...
///
/// It is written out as the `@Observable` macro expands a model (a registrar told of each read and
/// each write), except that the counters are kept behind a lock, so that several threads may write
/// and read them at once.
final class ObservableCounters: Observable, Sendable {
    /// How many counters, and so how many sender threads the model takes.
    static let count = 4

    private let registrar = ObservationRegistrar()
    private let storage = Mutex([0, 0, 0, 0])

    /// Counter 0.
    var counter0: Int {
        get { read(0, \.counter0) }
        set { write(newValue, to: 0, \.counter0) }
    }

    /// Counter 1.
    var counter1: Int {
        get { read(1, \.counter1) }
        set { write(newValue, to: 1, \.counter1) }
    }

    /// Counter 2.
    var counter2: Int {
        get { read(2, \.counter2) }
        set { write(newValue, to: 2, \.counter2) }
    }

    /// Counter 3.
    var counter3: Int {
        get { read(3, \.counter3) }
        set { write(newValue, to: 3, \.counter3) }
    }

    /// Sets counter `index` to `value`.
    func write(_ value: Int, to index: Int) {
        switch index {
        case 0: counter0 = value
        case 1: counter1 = value
        case 2: counter2 = value
        default: counter3 = value
        }
    }

    /// Counter `index`'s values through the Observation bridge, `publisher(for:options:scheduler:)`,
    /// as ``Stamp``s whose sender is the counter's index.
    func stamps(
        of index: Int, options: ObservationOptions = [.initial, .new], scheduler: DispatchQueue
    ) -> Publishers.Map<ObservationPublisher<Int>, Stamp> {
        let publisher =
            switch index {
            case 0: publisher(for: \.counter0, options: options, scheduler: scheduler)
            case 1: publisher(for: \.counter1, options: options, scheduler: scheduler)
            case 2: publisher(for: \.counter2, options: options, scheduler: scheduler)
            default: publisher(for: \.counter3, options: options, scheduler: scheduler)
            }
        return publisher.map { Stamp(sender: index, sequence: $0) }
    }

    private func read(_ index: Int, _ keyPath: KeyPath<ObservableCounters, Int>) -> Int {
        registrar.access(self, keyPath: keyPath)
        return storage.withLock { $0[index] }
    }

    private func write(_ value: Int, to index: Int, _ keyPath: KeyPath<ObservableCounters, Int>) {
        registrar.withMutation(of: self, keyPath: keyPath) {
            storage.withLock { $0[index] = value }
        }
    }
}
