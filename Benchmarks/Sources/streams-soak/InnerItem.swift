/// One value of an inner publisher in the flatMap workload: the outer value (the request) that made
/// the inner publisher, the value's index in it, and how many values the inner publisher sends.
struct InnerItem: Sendable {
    /// The outer value the inner publisher was made for.
    let request: Stamp
    /// The value's index among the inner publisher's values, from 0.
    let index: Int
    /// How many values the inner publisher sends before it finishes.
    let length: Int

    /// How many values the inner publisher made for `request` sends: 1 to 6, varying with the request.
    static func length(for request: Stamp) -> Int {
        1 + (request.sequence &* 7 &+ request.sender) % 6
    }
}
