/// One subscriber of a subject: its subscription, and closures that reach the subscriber.
///
/// The closures are formed where the subscriber's concrete type is known, so calling them runs code
/// specialized for that subscriber.
@usableFromInline
struct SubjectSubscriberEntry<Output, Failure: Error> {
    @usableFromInline
    let conduit: SubjectConduit<Output, Failure>
    @usableFromInline
    let receiveValue: (Output) -> Subscribers.Demand
    @usableFromInline
    let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    /// The subscriber, for reflection only.
    @usableFromInline
    let subscriber: Any

    @inlinable
    init<S: Subscriber>(conduit: SubjectConduit<Output, Failure>, subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        let box = SubscriberBox(subscriber)
        self.conduit = conduit
        receiveValue = { box.subscriber.receive($0) }
        receiveCompletion = { box.subscriber.receive(completion: $0) }
        self.subscriber = box
    }
}

/// Holds a subscriber in one object, so closures that reach it capture a single reference.
@usableFromInline
final class SubscriberBox<S: Subscriber> {
    @usableFromInline
    let subscriber: S

    @inlinable
    init(_ subscriber: S) {
        self.subscriber = subscriber
    }
}

/// The subscribers of a subject, in the order they subscribed.
///
/// One subscriber is stored inline, without a collection. More are stored in slots; each conduit knows
/// its slot, so removal is O(1), and the slots are compacted when more than half are empty.
@usableFromInline
struct SubjectSubscriberList<Output, Failure: Error> {
    @usableFromInline
    typealias Entry = SubjectSubscriberEntry<Output, Failure>

    @usableFromInline
    enum Storage {
        case empty
        case single(Entry)
        case many(ContiguousArray<Entry?>, live: Int)
    }

    @usableFromInline
    var storage = Storage.empty

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// Adds an entry; its conduit records its slot. Call with the subject's lock held.
    @inlinable
    mutating func append(_ entry: Entry) {
        switch storage {
        case .empty:
            entry.conduit.slot = 0
            storage = .single(entry)
        case .single(let first):
            first.conduit.slot = 0
            entry.conduit.slot = 1
            storage = .many([first, entry], live: 2)
        case .many(var slots, let live):
            storage = .empty
            entry.conduit.slot = slots.count
            slots.append(entry)
            storage = .many(slots, live: live + 1)
        }
    }

    /// The entry of a conduit, if it is still in the list. Call with the subject's lock held.
    @inlinable
    func entry(for conduit: SubjectConduit<Output, Failure>) -> Entry? {
        switch storage {
        case .empty:
            return nil
        case .single(let entry):
            return entry.conduit === conduit ? entry : nil
        case .many(let slots, _):
            let slot = conduit.slot
            guard slot >= 0, slot < slots.count, let entry = slots[slot], entry.conduit === conduit else {
                return nil
            }
            return entry
        }
    }

    /// Removes a conduit's entry and returns it. Call with the subject's lock held.
    @inlinable
    @discardableResult
    mutating func remove(_ conduit: SubjectConduit<Output, Failure>) -> Entry? {
        guard let entry = entry(for: conduit) else { return nil }
        switch storage {
        case .empty:
            return nil
        case .single:
            storage = .empty
        case .many(var slots, let live):
            storage = .empty
            slots[conduit.slot] = nil
            if live == 1 {
                storage = .empty
            } else {
                if slots.count >= 16 && (live - 1) * 2 < slots.count {
                    var compacted = ContiguousArray<Entry?>()
                    compacted.reserveCapacity(live - 1)
                    for case let survivor? in slots {
                        survivor.conduit.slot = compacted.count
                        compacted.append(survivor)
                    }
                    slots = compacted
                }
                storage = .many(slots, live: live - 1)
            }
        }
        conduit.slot = -1
        return entry
    }

    /// Calls `body` for each entry, in subscription order.
    @inlinable
    func forEach(_ body: (Entry) -> Void) {
        switch storage {
        case .empty:
            break
        case .single(let entry):
            body(entry)
        case .many(let slots, _):
            for case let entry? in slots { body(entry) }
        }
    }

    /// The number of subscribers.
    @inlinable
    var count: Int {
        switch storage {
        case .empty: return 0
        case .single: return 1
        case .many(_, let live): return live
        }
    }
}
