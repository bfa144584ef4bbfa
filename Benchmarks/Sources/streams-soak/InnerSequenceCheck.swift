/// Checks what a `flatMap` subscriber receives: each inner publisher's values arrive in order, none
/// missing, and every inner publisher whose first value arrived has sent all of its values by the
/// time `flatMap` finishes.
///
/// Only the inner publishers still sending are remembered, so the check's memory stays bounded
/// however long the subscriber lives.
struct InnerSequenceCheck: ValueCheck {
    /// The index expected next from each inner publisher that has started and not yet ended.
    private var open: [Stamp: Int] = [:]
    /// Inner publishers whose every value arrived.
    private(set) var completedInners = 0
    /// Values received.
    private(set) var items = 0

    /// A check that has seen nothing.
    init() {}

    /// Checks that the item is the next one of its inner publisher.
    mutating func check(_ item: InnerItem) -> String? {
        items += 1
        let expected = open[item.request] ?? 0
        guard item.index == expected else {
            return "inner publisher \(item.request): value \(item.index) after \(expected) values"
        }
        if item.index + 1 == item.length {
            open[item.request] = nil
            completedInners += 1
        } else {
            open[item.request] = item.index + 1
        }
        return nil
    }

    /// Checks that no inner publisher was cut short: flatMap finishes after all of them finished.
    func checkFinished() -> String? {
        guard let (request, next) = open.first else { return nil }
        return "flatMap finished while \(open.count) inner publishers had not sent all their values "
            + "(\(request) stopped at \(next))"
    }
}
