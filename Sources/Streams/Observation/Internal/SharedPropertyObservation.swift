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
/// A member sees what it would see alone. It joins, makes its own first read (tracked, with the
/// tracking notifying the shared observation, unless the observation is armed: a tracked read's
/// tracking here has not fired, so it announces the next change), stores that value, and then says
/// it is ready. It
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
    /// Rounds run one at a time, so members receive values in the order they were read; a round
    /// asked for while another reads is run by that one's thread once done.
    private var rounds = RerunTurn()
    /// The token of a tracked read that reports here: while it has not fired, the next change of the
    /// property is announced here, so a member that joins needs no tracking of its own.
    private weak var armedToken: ObservationTrackingToken?
    /// Set once a read found the model gone, or tracking was let go of: nothing will change any more.
    private var sourceGone = false
    /// Set when the last member leaves: a shared observation is not reused once ended.
    private var ended = false
    private var members: [Member] = []
    /// The action that runs a scheduled read, made once so that scheduling a read allocates no
    /// closure. Set at the end of `init`, before the observation is shared (through the registry's
    /// lock), and never changed.
    private var readAction: () -> Void = {}

    private init(
        key: ObservationSharingKey, model: AnyObject, read: @escaping () -> Value?,
        schedule: @escaping (@escaping () -> Void) -> Void
    ) {
        self.key = key
        self.model = model
        self.read = read
        self.schedule = schedule
        readAction = { [weak self] in self?.scheduledRead() }
    }

    /// The shared observations in use, by key.
    private static var registry: SharedObservationRegistry { .shared }

    /// Joins a member, identified by `id`, that `receiving` hands values to, to the observation of
    /// `sharing`'s property, creating the observation if none is in use; `read` and `schedule` serve a
    /// created one. Returns `nil` if the model is gone; `armed` says whether the observation's
    /// tracking announces the next change, in which case the member's first read needs no tracking
    /// (subscribing and cancelling then leaves nothing behind in the model).
    @usableFromInline
    static func join(
        _ id: ObjectIdentifier, receiving: @escaping (Value?) -> Void, sharing: ObservationSharing,
        read: @escaping () -> Value?, schedule: @escaping (@escaping () -> Void) -> Void
    ) -> (observation: SharedPropertyObservation, armed: Bool)? {
        guard let model = sharing.model else { return nil }
        let (joined, armed, replaced) = registry.withEntries(for: sharing.key) {
            entries -> (SharedPropertyObservation, Bool, AnyObject?) in
            if let existing = entries[sharing.key] as? SharedPropertyObservation, existing.model === model,
                let armed = existing.add(id, receiving)
            {
                return (existing, armed, nil)
            }
            let created = SharedPropertyObservation(key: sharing.key, model: model, read: read, schedule: schedule)
            _ = created.add(id, receiving)
            return (created, false, entries.updateValue(created, forKey: sharing.key))
        }
        // An ended observation is let go of outside the registry's lock: what it releases may call back.
        withExtendedLifetime(replaced) {}
        return (joined, armed)
    }

    /// Adds a member; returns whether the observation is armed, or `nil` if it has ended.
    private func add(_ id: ObjectIdentifier, _ receive: @escaping (Value?) -> Void) -> Bool? {
        lock.withLock {
            guard !ended else { return nil }
            members.append(Member(receive: receive, id: id, joinedAt: changeCount, readyAfterRound: nil))
            return isArmed
        }
    }

    /// Guarded by `lock`: whether a tracked read's tracking will announce the next change here.
    private var isArmed: Bool {
        armedToken.map { !$0.hasFired } ?? false
    }

    /// A member's first read was tracked with `token`, reporting here: it arms the observation.
    @usableFromInline
    func arm(_ token: ObservationTrackingToken) {
        lock.withLock { if !token.hasFired { armedToken = token } }
    }

    /// The member identified by `id` has read and stored its first value: shared reads that start
    /// from now on reach it. Schedules a read if a change was announced since it joined and none is
    /// scheduled (a round that started before may have skipped it). Returns `true` if nothing will
    /// change any more: the member then finishes after its first value.
    @usableFromInline
    func markReady(_ id: ObjectIdentifier) -> Bool {
        let (gone, schedules) = lock.withLock { () -> (Bool, Bool) in
            guard let index = members.firstIndex(where: { $0.id == id }) else { return (false, false) }
            members[index].readyAfterRound = roundsStarted
            if sourceGone { return (true, false) }
            guard !ended, !readScheduled, changeCount > members[index].joinedAt else { return (false, false) }
            readScheduled = true
            return (false, true)
        }
        if schedules { schedule(readAction) }
        return gone
    }

    /// Removes a member. The last one to leave ends the observation, unless it is armed: it then
    /// waits, without members, for one to join (who needs no tracking of its own), until the
    /// property changes, so that subscribing and cancelling over and over leaves one tracking in the
    /// model, not one per subscription.
    @usableFromInline
    func leave(_ id: ObjectIdentifier) {
        let emptied = lock.withLock { () -> Bool in
            guard let index = members.firstIndex(where: { $0.id == id }) else { return false }
            members.remove(at: index)
            return endIfIdle(waiting: isArmed && !sourceGone)
        }
        if emptied { unregister() }
    }

    /// Guarded by `lock`: ends the observation if it has no members and is not `waiting` for one.
    private func endIfIdle(waiting: Bool) -> Bool {
        guard members.isEmpty, !waiting, !ended else { return false }
        ended = true
        return true
    }

    /// Removes the ended observation from the registry.
    private func unregister() {
        Self.registry.withEntries(for: key) { entries in
            if entries[key] === self { entries[key] = nil }
        }
    }

    // MARK: Tracking

    @usableFromInline
    func changed() {
        let (schedules, emptied) = lock.withLock { () -> (Bool, Bool) in
            guard !ended else { return (false, false) }
            changeCount &+= 1
            if endIfIdle(waiting: false) { return (false, true) }
            guard !readScheduled else { return (false, false) }
            readScheduled = true
            return (true, false)
        }
        if emptied { unregister() }
        if schedules { schedule(readAction) }
    }

    @usableFromInline
    func trackingDropped() {
        let (schedule, emptied) = lock.withLock { () -> (((@escaping () -> Void) -> Void)?, Bool) in
            if endIfIdle(waiting: false) { return (nil, true) }
            return (ended ? nil : self.schedule, false)
        }
        if emptied { unregister() }
        schedule? { [weak self] in self?.finishMembers() }
    }

    /// Reads the property once, tracking it for the next change, and hands the value to every member
    /// that was ready when the read started and joined before the change it answers.
    ///
    /// Rounds run one at a time: a round asked for while another reads is run by that one's thread
    /// when it is done, so every member receives values in the order they were read.
    private func scheduledRead() {
        var round = lock.withLock { () -> Round? in
            readScheduled = false
            guard !ended, rounds.claim() else { return nil }
            return startRound()
        }
        while let current = round {
            let (value, token) = ObservationTrackingToken.read(read, reportingTo: self)
            guard let value else {
                lock.withLock { _ = rounds.finishRun(mayRunAgain: false) }
                finishMembers()
                return
            }
            // Read in place: copying each member would retain and release its closure.
            current.members.withUnsafeBufferPointer { members in
                for index in members.indices
                where members[index].receives(value, round: current.number, changes: current.changes) {
                    members[index].receive(value)
                }
            }
            round = lock.withLock { () -> Round? in
                if !token.hasFired { armedToken = token }
                guard rounds.finishRun(mayRunAgain: !ended) else { return nil }
                return startRound()
            }
        }
    }

    /// A round of reading: its number, the changes announced when it started, the members then.
    private typealias Round = (number: UInt64, changes: UInt64, members: [Member])

    /// Guarded by `lock`: starts a round.
    private func startRound() -> Round {
        roundsStarted &+= 1
        return (roundsStarted, changeCount, members)
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
