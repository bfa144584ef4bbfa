/// The subscribers of a subject, in the order they subscribed, as their conduits.
///
/// One subscriber is stored inline, without a collection. More are stored in slots; each conduit knows
/// its slot, so removal is O(1), and the slots are compacted when more than half are empty. The
/// subject's delivering thread reads the list in place, without retaining its conduits.
@usableFromInline
struct SubjectSubscriberList<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectConduit<Output, Failure>

    @usableFromInline
    enum Storage {
        case empty
        case single(Conduit)
        case many(ContiguousArray<Conduit?>, live: Int)
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

    /// The number of subscribers.
    @inlinable
    var count: Int {
        switch storage {
        case .empty: return 0
        case .single: return 1
        case .many(_, let live): return live
        }
    }

    /// Adds a conduit and records its slot. Call with the subject's lock held.
    @inlinable
    mutating func append(_ conduit: Conduit) {
        switch storage {
        case .empty:
            conduit.slot = 0
            storage = .single(conduit)
        case .single(let first):
            first.slot = 0
            conduit.slot = 1
            storage = .many([first, conduit], live: 2)
        case .many(var slots, let live):
            storage = .empty
            conduit.slot = slots.count
            slots.append(conduit)
            storage = .many(slots, live: live + 1)
        }
    }

    /// Whether the conduit is in the list. Call with the subject's lock held.
    @inlinable
    func contains(_ conduit: Conduit) -> Bool {
        switch storage {
        case .empty:
            return false
        case .single(let only):
            return only === conduit
        case .many(let slots, _):
            let slot = conduit.slot
            return slot >= 0 && slot < slots.count && slots[slot] === conduit
        }
    }

    /// Removes a conduit; false if it was not in the list. Call with the subject's lock held.
    @inlinable
    @discardableResult
    mutating func remove(_ conduit: Conduit) -> Bool {
        switch storage {
        case .empty:
            return false
        case .single(let only):
            guard only === conduit else { return false }
            storage = .empty
        case .many:
            // The slots are moved out and back, not copied: a copy would be copied again on write,
            // and would retain and release the storage on every removal.
            var taken = Storage.empty
            swap(&taken, &storage)
            guard case .many(var slots, let live) = consume taken else { preconditionFailure() }
            let slot = conduit.slot
            guard slot >= 0, slot < slots.count, slots[slot] === conduit else {
                storage = .many(slots, live: live)
                return false
            }
            slots[slot] = nil
            if live > 1 {
                if slots.count >= 16 && (live - 1) * 2 < slots.count {
                    var compacted = ContiguousArray<Conduit?>()
                    compacted.reserveCapacity(live - 1)
                    // Moved, not copied: each survivor costs no retain and no release.
                    for index in slots.indices {
                        guard let survivor = slots[index].take() else { continue }
                        survivor.slot = compacted.count
                        compacted.append(consume survivor)
                    }
                    slots = compacted
                }
                storage = .many(slots, live: live - 1)
            }
        }
        conduit.slot = -1
        return true
    }

    /// The only conduit, unretained, if the list holds exactly one. The caller keeps the list unchanged
    /// while it uses the conduit.
    @inlinable
    @inline(__always)
    var onlyConduit: Unmanaged<Conduit>? {
        guard case .single(let conduit) = storage else { return nil }
        return Unmanaged.passUnretained(conduit)
    }

    /// The conduit in a slot, unretained, or `nil` for an empty slot. The caller keeps the slots
    /// unchanged while it uses the conduit.
    @inlinable
    @inline(__always)
    static func conduit(in slots: UnsafeBufferPointer<Conduit?>, at index: Int) -> Unmanaged<Conduit>? {
        guard let conduit = slots[index] else { return nil }
        return Unmanaged.passUnretained(conduit)
    }

    /// Calls `body` for each conduit, in subscription order.
    @inlinable
    func forEach(_ body: (Conduit) -> Void) {
        switch storage {
        case .empty:
            break
        case .single(let conduit):
            body(conduit)
        case .many(let slots, _):
            for case let conduit? in slots { body(conduit) }
        }
    }
}
