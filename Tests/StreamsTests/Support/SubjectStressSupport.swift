import Dispatch
import Foundation
import Streams
import Synchronization

/// A subscriber that checks, as values arrive, what the thread-safety contract promises each
/// subscriber: values from one sender arrive in the order sent, never two calls at once, never more
/// values than requested, and nothing after `cancel()` has returned but a delivery already under way.
final class ContractProbe: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `lock`; `isReceiving` is atomic; `cancelling`
    // serializes calls to `cancel()`.
    typealias Input = StressValue
    typealias Failure = Never

    private let lock = Lock()
    private let cancelling = Lock()
    private let isReceiving = Atomic<Bool>(false)
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private var subscription: (any Subscription)?
    private var lastSequence: [Int]
    private var requested = Subscribers.Demand.none
    private var receivedCount = 0
    private var lastReceived: StressValue?
    private var completionCount = 0
    private var cancelReturned = false
    private var onValue: (@Sendable (StressValue) -> Void)?

    /// Breaches of the contract seen so far, described.
    private var breaches: [String] = []

    private var storedValuesAfterCancel = 0

    init(senders: Int, initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        lastSequence = Array(repeating: -1, count: senders)
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    /// Runs `body` for each value, inside `receive(_:)`.
    func onReceive(_ body: @escaping @Sendable (StressValue) -> Void) {
        lock.withLock { onValue = body }
    }

    var received: Int { lock.withLock { receivedCount } }
    var lastValue: StressValue? { lock.withLock { lastReceived } }
    var completions: Int { lock.withLock { completionCount } }
    var violations: [String] { lock.withLock { breaches } }
    /// Values that arrived after `cancel()` had returned.
    var valuesAfterCancel: Int { lock.withLock { storedValuesAfterCancel } }

    /// The sequence number of the last value received from `sender`, or -1.
    func lastSequence(from sender: Int) -> Int {
        lock.withLock { lastSequence[sender] }
    }

    func receive(subscription: any Subscription) {
        // A cancel that came before the subscription ends it as it arrives, as a sink's does: a
        // subscriber cancelled from another thread while it is being subscribed gets nothing.
        let cancelled = lock.withLock { () -> Bool in
            guard !cancelReturned else { return true }
            self.subscription = subscription
            requested += initialDemand
            return false
        }
        if cancelled {
            subscription.cancel()
            return
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: StressValue) -> Subscribers.Demand {
        if isReceiving.exchange(true, ordering: .acquiringAndReleasing) {
            lock.withLock { breaches.append("called concurrently") }
        }
        let hook = lock.withLock { () -> (@Sendable (StressValue) -> Void)? in
            receivedCount += 1
            lastReceived = input
            if cancelReturned { storedValuesAfterCancel += 1 }
            if requested != .unlimited && receivedCount > requested.max ?? 0 {
                breaches.append("received \(receivedCount) values with \(requested) requested")
            }
            if input.sender >= 0 {
                if input.sequence <= lastSequence[input.sender] {
                    breaches.append("\(input) arrived after sequence \(lastSequence[input.sender])")
                }
                lastSequence[input.sender] = input.sequence
            }
            requested += demandPerValue
            return onValue
        }
        hook?(input)
        isReceiving.store(false, ordering: .releasing)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { completionCount += 1 }
    }

    /// Requests more, from whichever thread calls it.
    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { () -> (any Subscription)? in
            requested += demand
            return self.subscription
        }
        subscription?.request(demand)
    }

    func cancel() {
        // One cancel at a time: a second caller returns only once the first one's `cancel()` on the
        // subscription has returned, so "after cancel returned" means after the subscription's.
        cancelling.withLock {
            let subscription = lock.withLock { self.subscription.take() }
            subscription?.cancel()
            lock.withLock { cancelReturned = true }
        }
    }
}

/// Weak references to objects that must be gone once a test is over.
final class WeakReferences: @unchecked Sendable {
    // @unchecked: `references` is guarded by `lock`.
    private let lock = Lock()
    private var references: [() -> AnyObject?] = []

    func track(_ object: AnyObject) {
        lock.withLock { references.append { [weak object] in object } }
    }

    var count: Int { lock.withLock { references.count } }

    /// How many of the tracked objects are still alive.
    var alive: Int {
        lock.withLock { references.filter { $0() != nil }.count }
    }
}
