/// Which observers woke, and how many times each: what a write cost the observers.
public struct Wakes: Equatable, Sendable {
    /// How many times each observer that woke did; observers that did not wake are absent.
    public var byObserver: [ObserverID: Int]

    /// Creates a record of wakes.
    ///
    /// - Parameter byObserver: How many times each observer that woke did.
    public init(byObserver: [ObserverID: Int] = [:]) {
        self.byObserver = byObserver
    }

    /// How many wakes in all.
    public var total: Int {
        byObserver.values.reduce(0, +)
    }

    /// How many wakes among the observers of each part; parts nobody woke for are absent.
    public var byPart: [MailPart: Int] {
        byObserver.reduce(into: [:]) { counts, entry in counts[entry.key.part, default: 0] += entry.value }
    }

    /// How many wakes among the observers that subscribe each way; ways nobody woke through are
    /// absent.
    public var byWay: [ObservationWay: Int] {
        byObserver.reduce(into: [:]) { counts, entry in counts[entry.key.way, default: 0] += entry.value }
    }
}
