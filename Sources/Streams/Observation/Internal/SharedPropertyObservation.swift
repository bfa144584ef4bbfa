import Observation

/// What makes two `publisher(for:)` subscriptions able to share one observation: the same model, the
/// same key path and the same scheduler (a class instance, so that its identity is meaningful).
@usableFromInline
struct ObservationSharingKey: Hashable, @unchecked Sendable {
    // @unchecked Sendable: the key path is only compared and hashed, never applied through the key.
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
/// A member joins before making its own first, tracked read (so its initial value and the changes
/// after it are seen exactly as if it observed alone: that first read's tracking notifies the
/// shared observation), and receives a shared read only if a change was announced after it joined.
/// A change that races with joining can therefore bring a member the value it already read, as
/// Observation itself announces a write of an unchanged value; it never leaves a member behind.
// @unchecked Sendable: `members`, `changeCount`, `readScheduled` and `ended` are guarded by `lock`;
// `read` and `schedule` are immutable.
@usableFromInline
final class SharedPropertyObservation<Value>: ObservationTrackingTarget, @unchecked Sendable {
    /// A member and the number of changes announced when it joined. `receive` holds the subscription
    /// weakly: a subscription that its subscriber lets go of without cancelling ends, as one that
    /// observes alone does. It takes the property's value after a change, read once for every member,
    /// or `nil` once the model is gone or nothing can change any more, which finishes the member.
    private struct Member {
        let receive: (Value?) -> Void
        let id: ObjectIdentifier
        let joinedAt: UInt64
    }

    private let lock = Lock()
    private let key: ObservationSharingKey
    private weak let model: AnyObject?
    private let read: () -> Value?
    private let schedule: (@escaping () -> Void) -> Void
    private var changeCount: UInt64 = 0
    private var readScheduled = false
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
        let (joined, replaced) = registry.withEntries { entries -> (SharedPropertyObservation, AnyObject?) in
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
            members.append(Member(receive: receive, id: id, joinedAt: changeCount))
            return true
        }
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
        Self.registry.withEntries { entries in
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
    /// that joined before the change it answers.
    private func scheduledRead() {
        let round = lock.withLock { () -> (changes: UInt64, members: [Member])? in
            readScheduled = false
            guard !ended else { return nil }
            return (changeCount, members)
        }
        guard let round else { return }
        let token = ObservationTrackingToken(target: self)
        let value = withObservationTracking(read, onChange: { [token] in token.fire() })
        for member in round.members where value == nil || member.joinedAt < round.changes {
            member.receive(value)
        }
    }

    private func finishMembers() {
        let members = lock.withLock { ended ? [] : self.members }
        for member in members { member.receive(nil) }
    }
}

/// The shared observations in use, by key, held strongly until their last member leaves.
// @unchecked Sendable: `entries` is guarded by `lock`.
final class SharedObservationRegistry: @unchecked Sendable {
    static let shared = SharedObservationRegistry()

    private let lock = Lock()
    private var entries: [ObservationSharingKey: AnyObject] = [:]

    /// Runs `body` with the entries, under the registry's lock.
    func withEntries<Result>(_ body: (inout [ObservationSharingKey: AnyObject]) -> Result) -> Result {
        lock.withLock { body(&entries) }
    }
}
