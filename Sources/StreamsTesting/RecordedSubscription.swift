public import Streams

/// What a subscriber asked of a test publisher, with the virtual time of each request: when it
/// subscribed, each demand, and when it cancelled.
///
/// ``HotTestPublisher`` and ``ColdTestPublisher`` keep one per subscriber, in the order the
/// subscribers arrived, so a test can check how an operator under test treats its upstream: when it
/// subscribes, how much it asks for, and when it lets go.
///
/// For example, suppose a type loads pages of results from a paging publisher and should ask for
/// one page at a time, and stop when it is torn down:
///
/// ```swift
/// final class Pager {
///     private(set) var pages: [[String]] = []
///     private var subscription: (any Subscription)?
///
///     init<P: Publisher<[String], Never>>(pages publisher: P) {
///         publisher.subscribe(AnySubscriber(
///             receiveSubscription: { [weak self] subscription in
///                 self?.subscription = subscription
///                 subscription.request(.max(1))
///             },
///             receiveValue: { [weak self] page in self?.pages.append(page); return .none }
///         ))
///     }
///
///     func loadMore() { subscription?.request(.max(1)) }
///     func close() { subscription?.cancel() }
/// }
///
/// @Test func loadsOnePageAtATimeUntilClosed() {
///     let scheduler = DispatchQueue.test
///     let pages = scheduler.createColdPublisher([
///         .value(["a", "b"], at: .milliseconds(100)),
///         .value(["c", "d"], at: .milliseconds(200)),
///         .value(["e"], at: .milliseconds(300)),
///     ])
///     scheduler.advance(by: .seconds(1))
///     let pager = Pager(pages: pages)
///     scheduler.advance(by: .seconds(1))
///     pager.loadMore()
///     scheduler.advance(by: .seconds(1))
///     pager.close()
///
///     #expect(pager.pages == [["a", "b"], ["c", "d"]])
///     #expect(pages.subscriptions == [
///         RecordedSubscription(
///             subscribed: .seconds(1),
///             demands: [.demand(.max(1), at: .seconds(1)), .demand(.max(1), at: .seconds(2))],
///             cancelled: .seconds(3)
///         ),
///     ])
/// }
/// ```
///
/// Demands are every increase in demand, in order: each call to `request(_:)` (whatever it asks for,
/// even `.none`, and even after cancellation) and each non-zero demand a subscriber returns from
/// `receive(_:)`. Only the first cancellation is recorded.
public struct RecordedSubscription<Time> {
    /// When the subscriber subscribed, as a stride since the test scheduler's start.
    public var subscribed: Time

    /// Each demand the subscriber added, with its time, in order.
    public var demands: [Recorded<Time, Subscribers.Demand>]

    /// When the subscriber first cancelled, if it did.
    public var cancelled: Time?

    /// Creates a record, usually to compare with what a test publisher recorded.
    ///
    /// - Parameters:
    ///   - subscribed: When the subscriber subscribed.
    ///   - demands: Each demand it added, with its time, in order.
    ///   - cancelled: When it cancelled, or `nil` if it did not.
    public init(subscribed: Time, demands: [Recorded<Time, Subscribers.Demand>] = [], cancelled: Time? = nil) {
        self.subscribed = subscribed
        self.demands = demands
        self.cancelled = cancelled
    }
}

extension RecordedSubscription: Equatable where Time: Equatable {}

extension RecordedSubscription: Hashable where Time: Hashable {}

extension RecordedSubscription: Sendable where Time: Sendable {}

extension RecordedSubscription: CustomStringConvertible {
    /// The subscription time, the demands and the cancellation time, for test failure messages, such
    /// as `subscribed at 1 s, demands [max(1) at 1 s], cancelled at 2.5 s`.
    ///
    /// Times are written as in ``Recorded/description``.
    public var description: String {
        let cancellation = cancelled.map { "cancelled at \(ReadableTime.describe($0))" } ?? "not cancelled"
        let demandList = demands.map(\.description).joined(separator: ", ")
        return "subscribed at \(ReadableTime.describe(subscribed)), demands [\(demandList)], \(cancellation)"
    }
}
