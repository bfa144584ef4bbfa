import BenchmarkCore

/// Scenarios 11 by hand: the same observers, reads, comparisons and stores, with no framework.
extension FloorScenarios {
    /// 11a. Every observer runs on every write and re-reads its part (before the store, as
    /// `objectWillChange` observers do).
    public static func naiveStore(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = TenProperties()
        let tally = Tally()
        for index in 0..<observers {
            let field = ObservationWork.field(ofObserver: index)
            model.observe(opaque { SeedsWork.render(model.field(field), into: tally) })
        }
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            model.set(field, to: value)
        }
        probe.stop()
        return tally.checksum
    }

    /// 11b. After each write, every observer takes its snapshot and compares it with its last; the
    /// ones that changed store it and run.
    public static func deduplicatedObservers(observers: Int, writes: Int, probe: Probe) -> Int {
        let tally = Tally()
        var state = State10()
        let snapshots = (0..<observers).map { index in
            SnapshotObserver(snapshot: State10.getters[ObservationWork.field(ofObserver: index)], last: 0)
        }
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            state.set(field, to: value)
            for observer in snapshots {
                let snapshot = observer.snapshot(state)
                guard snapshot != observer.last else { continue }
                observer.last = snapshot
                SeedsWork.render(snapshot, into: tally)
            }
        }
        probe.stop()
        return tally.checksum
    }

    /// 11c. After each write, every observer reads its part and compares it with the value it holds;
    /// the ones that changed store it.
    public static func observedPublishers(observers: Int, writes: Int, probe: Probe) -> Int {
        let tally = Tally()
        var state = State10()
        let holders = (0..<observers).map { index in
            SnapshotObserver(snapshot: State10.getters[ObservationWork.field(ofObserver: index)], last: 0)
        }
        probe.start()
        for write in 0..<writes {
            let (field, value) = State10.update(write)
            state.set(field, to: value)
            for holder in holders {
                let part = holder.snapshot(state)
                if part != holder.last { holder.last = part }
            }
        }
        probe.stop()
        for holder in holders { SeedsWork.render(holder.last, into: tally) }
        return tally.checksum
    }
}

/// An observer of one field: how it takes its snapshot (a closure, as a wrapper's user passes), and
/// the last value it took.
final class SnapshotObserver {
    let snapshot: (State10) -> Int
    var last: Int

    init(snapshot: @escaping (State10) -> Int, last: Int) {
        self.snapshot = snapshot
        self.last = last
    }
}

extension TenProperties: TenFields {}
