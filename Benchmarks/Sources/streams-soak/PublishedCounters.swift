import Streams

/// The model of the ObservableObject workload: an `ObservableObject` with four `@Published`
/// counters, each written by one sender thread (counter `i` by sender `i`) with 1, 2, 3, ...
final class PublishedCounters: ObservableObject, @unchecked Sendable {  // @Published storage is locked
    /// How many counters, and so how many sender threads the model takes.
    static let count = 4

    @Published var counter0 = 0
    @Published var counter1 = 0
    @Published var counter2 = 0
    @Published var counter3 = 0

    /// Sets counter `index` to `value`.
    func write(_ value: Int, to index: Int) {
        switch index {
        case 0: counter0 = value
        case 1: counter1 = value
        case 2: counter2 = value
        default: counter3 = value
        }
    }

    /// Counter `index`'s value.
    func value(of index: Int) -> Int {
        switch index {
        case 0: counter0
        case 1: counter1
        case 2: counter2
        default: counter3
        }
    }

    /// Counter `index`'s publisher, `$counter…`, as ``Stamp``s whose sender is the counter's index.
    func stamps(of index: Int) -> Publishers.Map<Published<Int>.Publisher, Stamp> {
        let publisher =
            switch index {
            case 0: $counter0
            case 1: $counter1
            case 2: $counter2
            default: $counter3
            }
        return publisher.map { Stamp(sender: index, sequence: $0) }
    }
}
