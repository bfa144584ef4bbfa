import Observation

/// What makes two `publisher(for:)` subscriptions able to share one observation: the same model, the
/// same key path and the same scheduler (a class instance, so that its identity is meaningful).
@usableFromInline
struct ObservationSharingKey: Hashable {
    let model: ObjectIdentifier
    let keyPath: AnyKeyPath
    let scheduler: ObjectIdentifier
}

/// How a publisher made by `publisher(for:)` finds the observation it can share: the key, and the
/// model, held weakly as the publisher's expression holds it.
@usableFromInline
struct ObservationSharing {
    let key: ObservationSharingKey
    weak var model: AnyObject?
}

/// One observation of one property of one model, shared by every `publisher(for:)` subscription of
/// that property on the same scheduler: a change schedules one read, tracked once, and its value is
/// handed to each member, which then delivers it under its own demand.
///
/// A member sees what it would see alone. It joins, makes its own first, tracked read (whose
/// tracking also notifies the shared observation), stores that value, and then says it is ready. It
/// receives a shared read only if the read started after it was ready, so every value it receives
/// was read after the one before it, and only if a change was announced after it joined. A change
/// announced while it was joining and reading may have been read by a round that started before it
/// was ready; being ready then schedules one more read, so it is never left behind. A change that
/// races with joining can bring a member the value it already has, as Observation itself announces
/// a write that stores an unchanged value.
@usableFromInline
final class SharedPropertyObservation<Value>: ObservationTrackingTarget,
    // @unchecked Sendable: the mutable state is guarded by `lock`; `read` and `schedule` are immutable.
    @unchecked Sendable
{
    /// A member and the number of changes announced when it joined. `receive` holds the subscription
    /// weakly: a subscription that its subscriber lets go of without cancelling ends, as one that
    /// observes alone does. It takes the property's value after a change, read once for every member,
    /// or `nil` once the model is gone or nothing can change any more, which finishes the member.
    private struct Member {
        let receive: (Value?) -> Void
        let id: ObjectIdentifier
        let joinedAt: UInt64
        /// The number of rounds started when the member was ready; `nil` until then.
        var readyAfterRound: UInt64?

        /// Whether a round, the `round`-th started, announcing `changes`, delivers its value to it.
        func receives(_ value: Value, round: UInt64, changes: UInt64) -> Bool {
            guard let readyAfterRound, readyAfterRound < round else { return false }
            return joinedAt < changes
        }
    }

    private let lock = Lock()
    private let key: ObservationSharingKey
    private weak let model: AnyObject?
    private let read: () -> Value?
    private let schedule: (@escaping () -> Void) -> Void
    private var changeCount: UInt64 = 0
    private var roundsStarted: UInt64 = 0
    private var readScheduled = false
    /// Set once a read found the model gone, or tracking was let go of: nothing will change any more.
    private var sourceGone = false
    /// Set when the last member leaves: a shared observation is not reused once ended.
    private var ended = false
    private var members: [Member] = []

    private init(
        key: ObservationSharingKey, model: AnyObject, read: @escaping () -> Value?,
        schedule: @escaping (@escaping () -> Void) -> Void
    ) {
        self.key = key
        self.model = model
        self.read = read
        self.schedule = schedule
    }

    /// The shared observations in use, by key.
    private static var registry: SharedObservationRegistry { .shared }

    /// Joins a member, identified by `id`, that `receiving` hands values to, to the observation of
    /// `sharing`'s property, creating the observation if none is in use; `read` and `schedule` serve a
    /// created one. Returns `nil` if the model is gone.
    @usableFromInline
    static func join(
        _ id: ObjectIdentifier, receiving: @escaping (Value?) -> Void, sharing: ObservationSharing,
        read: @escaping () -> Value?, schedule: @escaping (@escaping () -> Void) -> Void
    ) -> SharedPropertyObservation? {
        guard let model = sharing.model else { return nil }
        let (joined, replaced) = registry.withEntries(for: sharing.key) {
            entries -> (SharedPropertyObservation, AnyObject?) in
            if let existing = entries[sharing.key] as? SharedPropertyObservation, existing.model === model,
                existing.add(id, receiving)
            {
                return (existing, nil)
            }
            let created = SharedPropertyObservation(key: sharing.key, model: model, read: read, schedule: schedule)
            _ = created.add(id, receiving)
            return (created, entries.updateValue(created, forKey: sharing.key))
        }
        // An ended observation is let go of outside the registry's lock: what it releases may call back.
        withExtendedLifetime(replaced) {}
        return joined
    }

    private func add(_ id: ObjectIdentifier, _ receive: @escaping (Value?) -> Void) -> Bool {
        lock.withLock {
            guard !ended else { return false }
            members.append(Member(receive: receive, id: id, joinedAt: changeCount, readyAfterRound: nil))
            return true
        }
    }

    /// The member identified by `id` has read and stored its first value: shared reads that start
    /// from now on reach it. Schedules a read if a change was announced since it joined and none is
    /// scheduled (a round that started before may have skipped it). Returns `true` if nothing will
    /// change any more: the member then finishes after its first value.
    @usableFromInline
    func markReady(_ id: ObjectIdentifier) -> Bool {
        let (gone, schedule) = lock.withLock { () -> (Bool, ((@escaping () -> Void) -> Void)?) in
            guard let index = members.firstIndex(where: { $0.id == id }) else { return (false, nil) }
            members[index].readyAfterRound = roundsStarted
            if sourceGone { return (true, nil) }
            guard !ended, !readScheduled, changeCount > members[index].joinedAt else { return (false, nil) }
            readScheduled = true
            return (false, self.schedule)
        }
        schedule? { [weak self] in self?.scheduledRead() }
        return gone
    }

    /// Removes a member; the last one to leave ends the observation.
    @usableFromInline
    func leave(_ id: ObjectIdentifier) {
        let emptied = lock.withLock { () -> Bool in
            guard let index = members.firstIndex(where: { $0.id == id }) else { return false }
            members.remove(at: index)
            guard members.isEmpty else { return false }
            ended = true
            return true
        }
        guard emptied else { return }
        Self.registry.withEntries(for: key) { entries in
            if entries[key] === self { entries[key] = nil }
        }
    }

    // MARK: Tracking

    @usableFromInline
    func changed() {
        let schedule = lock.withLock { () -> ((@escaping () -> Void) -> Void)? in
            guard !ended else { return nil }
            changeCount &+= 1
            guard !readScheduled else { return nil }
            readScheduled = true
            return self.schedule
        }
        schedule? { [weak self] in self?.scheduledRead() }
    }

    @usableFromInline
    func trackingDropped() {
        let schedule = lock.withLock { ended ? nil : self.schedule }
        schedule? { [weak self] in self?.finishMembers() }
    }

    /// Reads the property once, tracking it for the next change, and hands the value to every member
    /// that was ready when the read started and joined before the change it answers.
    private func scheduledRead() {
        let round = lock.withLock { () -> (number: UInt64, changes: UInt64, members: [Member])? in
            readScheduled = false
            guard !ended else { return nil }
            roundsStarted &+= 1
            return (roundsStarted, changeCount, members)
        }
        guard let round else { return }
        guard let value = ObservationTrackingToken.read(read, reportingTo: self) else {
            finishMembers()
            return
        }
        for member in round.members where member.receives(value, round: round.number, changes: round.changes) {
            member.receive(value)
        }
    }

    /// Finishes the members that are ready; the others finish once they are.
    private func finishMembers() {
        let members = lock.withLock { () -> [Member] in
            sourceGone = true
            return ended ? [] : self.members.filter { $0.readyAfterRound != nil }
        }
        for member in members { member.receive(nil) }
    }
}

/// The shared observations in use, by key, held strongly until their last member leaves; split
/// into stripes by model (``LockStripes``), so that subscribing to unrelated models rarely meets on a
/// lock.
final class SharedObservationRegistry: Sendable {
    static let shared = SharedObservationRegistry()

    private let stripes = LockStripes(initial: [ObservationSharingKey: AnyObject]())

    /// Runs `body` with the entries of `key`'s stripe, under that stripe's lock.
    func withEntries<Result>(
        for key: ObservationSharingKey, _ body: (inout [ObservationSharingKey: AnyObject]) -> Result
    ) -> Result {
        stripes.withStripe(for: key.model, body)
    }
}
