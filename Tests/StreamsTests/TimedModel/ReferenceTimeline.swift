/// The reference's virtual time, in whole seconds: work runs in the order of its instant, and among
/// equal instants in the order it was scheduled, as on `TestScheduler`.
final class ReferenceTimeline {
    private struct Entry {
        var due: Int
        var ticket: Int
        var action: () -> Void
    }

    private(set) var now = 0
    private var entries: [Entry] = []
    private var nextTicket = 0

    /// Runs `action` `delay` seconds from now (now, after what is already due now, for zero).
    @discardableResult
    func schedule(after delay: Int = 0, _ action: @escaping () -> Void) -> Int {
        let ticket = nextTicket
        nextTicket += 1
        entries.append(Entry(due: now + max(delay, 0), ticket: ticket, action: action))
        return ticket
    }

    /// Runs `action` `delay` seconds from now and then every `interval`, until the repetition is
    /// cancelled; each run schedules the next one after it returns.
    func scheduleRepeating(after delay: Int, every interval: Int, _ action: @escaping () -> Void)
        -> ReferenceRepetition
    {
        let repetition = ReferenceRepetition(timeline: self)
        repeatRun(at: now + max(delay, 0), every: interval, repetition, action)
        return repetition
    }

    private func repeatRun(
        at due: Int, every interval: Int, _ repetition: ReferenceRepetition, _ action: @escaping () -> Void
    ) {
        repetition.ticket = schedule(after: due - now) { [unowned self] in
            guard !repetition.isCancelled else { return }
            action()
            guard !repetition.isCancelled else { return }
            repeatRun(at: due + interval, every: interval, repetition, action)
        }
    }

    /// Takes the work with `ticket` off the time line.
    func cancel(_ ticket: Int) {
        entries.removeAll { $0.ticket == ticket }
    }

    /// Runs everything due by `limit` (everything, if `nil`), then moves to `limit`. Gives up after
    /// `workLimit` pieces of work, returning `false`.
    func run(until limit: Int?, workLimit: Int = 100_000) -> Bool {
        var done = 0
        while let index = nextIndex(dueBy: limit) {
            guard done < workLimit else { return false }
            done += 1
            let entry = entries.remove(at: index)
            now = max(now, entry.due)
            entry.action()
        }
        if let limit { now = max(now, limit) }
        return true
    }

    private func nextIndex(dueBy limit: Int?) -> Int? {
        var best: Int?
        for index in entries.indices where limit.map({ entries[index].due <= $0 }) ?? true {
            if let chosen = best,
                (entries[chosen].due, entries[chosen].ticket) < (entries[index].due, entries[index].ticket)
            {
                continue
            }
            best = index
        }
        return best
    }
}

/// A repeating piece of work on a ``ReferenceTimeline``.
final class ReferenceRepetition {
    private unowned let timeline: ReferenceTimeline
    fileprivate var ticket: Int?
    private(set) var isCancelled = false

    fileprivate init(timeline: ReferenceTimeline) {
        self.timeline = timeline
    }

    /// Stops the repetition: its waiting run is taken off the time line.
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        if let ticket { timeline.cancel(ticket) }
    }
}

/// Hands events to a subscriber one at a time: an event that comes while one is being handed over
/// waits its turn (what the paced operators do when a delivery leads to another).
final class ReferenceDeliveryQueue<Event> {
    private var waiting: [Event] = []
    private var delivering = false

    /// Delivers `event` with `deliver`, now or, during a delivery, after it and what waits before it.
    func enqueue(_ event: Event, _ deliver: (Event) -> Void) {
        enqueue(contentsOf: [event], deliver)
    }

    /// Delivers `events` in order: all of them are queued before the first goes out, so what a
    /// delivery leads to comes after them.
    func enqueue(contentsOf events: [Event], _ deliver: (Event) -> Void) {
        waiting += events
        guard !delivering else { return }
        delivering = true
        while !waiting.isEmpty {
            deliver(waiting.removeFirst())
        }
        delivering = false
    }

    /// Drops what waits (after a cancel).
    func discard() {
        waiting.removeAll()
    }
}
