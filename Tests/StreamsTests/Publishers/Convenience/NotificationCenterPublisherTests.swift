import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Tests of `NotificationCenter.publisher(for:object:)` and `NotificationCenter.Publisher`, each on
/// a notification center of its own.
@Suite(.timeLimit(.minutes(3))) struct NotificationCenterPublisherTests {
    let name = Notification.Name("NotificationCenterPublisherTests.ping")

    /// The `tag` entry of each notification's user info.
    func tags(_ notifications: [Notification]) -> [Int] {
        notifications.map { $0.userInfo?["tag"] as? Int ?? -1 }
    }

    func post(_ tag: Int, to center: NotificationCenter, object: AnyObject? = nil) {
        center.post(name: name, object: object, userInfo: ["tag": tag])
    }

    // MARK: Shape

    @Test func publisherKeepsCenterNameAndObjectAndComparesObjectsByIdentity() {
        let center = NotificationCenter()
        let other = NotificationCenter()
        let object = FlowToken()
        let publisher = center.publisher(for: name, object: object)
        #expect(publisher.center === center)
        #expect(publisher.name == name)
        #expect(publisher.object === object)
        #expect(center.publisher(for: name).object == nil)

        #expect(publisher == NotificationCenter.Publisher(center: center, name: name, object: object))
        #expect(publisher != center.publisher(for: name))
        #expect(publisher != center.publisher(for: name, object: FlowToken()))
        #expect(publisher != center.publisher(for: Notification.Name("other"), object: object))
        #expect(publisher != other.publisher(for: name, object: object))
        #expect(center.publisher(for: name) == center.publisher(for: name))
    }

    @Test func subscriptionDescribesItselfAndReflectsItsState() {
        let center = NotificationCenter()
        let object = FlowToken()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(2))
        center.publisher(for: name, object: object).subscribe(subscriber)
        let subscription = subscriber.subscription!
        #expect(String(describing: subscription) == "NotificationCenter Observer")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "NotificationCenter Observer")
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["center", "name", "object", "demand"])
        let children = Array(mirror.children)
        #expect((children[0].value as? NotificationCenter) === center)
        #expect(children[1].value as? Notification.Name == name)
        #expect((children[2].value as? FlowToken) === object)
        #expect(children[3].value as? Subscribers.Demand == .max(2))
        subscriber.cancel()
    }

    // MARK: Values and demand

    @Test func deliversPostedNotificationsInOrderAndNeverCompletes() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(subscriber)
        for tag in 1...3 { post(tag, to: center) }
        center.post(name: Notification.Name("unrelated"), object: nil)
        #expect(tags(subscriber.values) == [1, 2, 3])
        #expect(subscriber.values.allSatisfy { $0.name == name })
        #expect(subscriber.completion == nil)
        #expect(subscriber.subscriptionCount == 1)
        subscriber.cancel()
    }

    @Test func dropsNotificationsPostedWithoutDemandAndHonoursDemandFromValues() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .none) { notification in
            notification.userInfo?["tag"] as? Int == 3 ? .max(1) : .none
        }
        center.publisher(for: name).subscribe(subscriber)
        post(1, to: center)  // No demand yet: dropped, not kept for later.
        subscriber.request(.none)
        post(2, to: center)
        subscriber.request(.max(2))
        #expect(subscriber.values.isEmpty)
        post(3, to: center)  // Asks for one more.
        post(4, to: center)
        post(5, to: center)
        post(6, to: center)  // Demand used up.
        subscriber.request(.max(1))
        post(7, to: center)
        post(8, to: center)
        #expect(tags(subscriber.values) == [3, 4, 5, 7])
        subscriber.cancel()
    }

    @Test func notificationPostedFromInsideReceiveIsDeliveredNestedWhileThereIsDemand() {
        let center = NotificationCenter()
        let order = Mutex<[String]>([])
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(3)) { _ in .unlimited }
        subscriber.onReceiveValue { notification in
            let tag = notification.userInfo?["tag"] as? Int ?? -1
            order.withLock { $0.append("enter \(tag)") }
            if tag < 5 { self.post(tag + 1, to: center) }
            order.withLock { $0.append("leave \(tag)") }
        }
        center.publisher(for: name).subscribe(subscriber)
        // 1, 2 and 3 use up the demand of 3 before the first `.unlimited` comes back: 4 is dropped.
        post(1, to: center)
        #expect(tags(subscriber.values) == [1, 2, 3])
        #expect(
            order.withLock { $0 } == ["enter 1", "enter 2", "enter 3", "leave 3", "leave 2", "leave 1"])
        post(4, to: center)
        #expect(tags(subscriber.values) == [1, 2, 3, 4, 5])
        subscriber.cancel()
    }

    // MARK: Object filtering

    @Test func objectFiltersBySenderAndNilObjectReceivesFromEverySender() {
        let center = NotificationCenter()
        let first = FlowToken()
        let second = FlowToken()
        let filtered = TestSubscriber<Notification, Never>()
        let everything = TestSubscriber<Notification, Never>()
        center.publisher(for: name, object: first).subscribe(filtered)
        center.publisher(for: name).subscribe(everything)
        post(1, to: center, object: first)
        post(2, to: center, object: second)
        post(3, to: center)
        post(4, to: center, object: first)
        #expect(tags(filtered.values) == [1, 4])
        #expect(filtered.values.allSatisfy { $0.object as? FlowToken === first })
        #expect(tags(everything.values) == [1, 2, 3, 4])
        filtered.cancel()
        everything.cancel()
    }

    // MARK: Cancellation and memory

    @Test func cancelRemovesTheObserverAndIsIdempotent() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        let other = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(subscriber)
        center.publisher(for: name).subscribe(other)
        post(1, to: center)
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        subscriber.subscription?.request(.max(5))
        post(2, to: center)
        #expect(tags(subscriber.values) == [1])
        #expect(tags(other.values) == [1, 2])
        #expect(subscriber.completion == nil)
        #expect(Mirror(reflecting: subscriber.subscription!).children.map { "\($0.value)" }.last == "max(0)")
        other.cancel()
    }

    @Test func cancelFromInsideReceiveStopsFurtherDeliveries() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        subscriber.onReceiveValue { notification in
            if notification.userInfo?["tag"] as? Int == 2 { subscriber.subscription?.cancel() }
        }
        center.publisher(for: name).subscribe(subscriber)
        for tag in 1...4 { post(tag, to: center) }
        #expect(tags(subscriber.values) == [1, 2])
    }

    @Test func cancellingReleasesTheSubscriberAndTheCenter() {
        weak var weakCenter: NotificationCenter?
        weak var weakSubscriber: TestSubscriber<Notification, Never>?
        var subscription: (any Subscription)?
        do {
            let center = NotificationCenter()
            let subscriber = TestSubscriber<Notification, Never>()
            weakCenter = center
            weakSubscriber = subscriber
            center.publisher(for: name).subscribe(subscriber)
            subscription = subscriber.subscription
            post(1, to: center)
            #expect(subscriber.values.count == 1)
        }
        #expect(weakCenter != nil)  // The live subscription holds its center.
        subscription?.cancel()
        subscription = nil
        #expect(weakCenter == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func aSubscriptionNobodyHoldsReceivesNothingAndIsFreed() {
        let center = NotificationCenter()
        let received = Mutex(0)
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = AnySubscriber<Notification, Never>(
                receiveSubscription: { subscription in
                    weakSubscription = subscription as AnyObject
                    subscription.request(.unlimited)
                },
                receiveValue: { _ in
                    received.withLock { $0 += 1 }
                    return .none
                })
            center.publisher(for: name).subscribe(subscriber)
        }
        #expect(weakSubscription == nil)  // The center holds the subscription only weakly.
        post(1, to: center)
        #expect(received.withLock { $0 } == 0)
    }

    // MARK: Threads

    @Test func postsFromManyThreadsReachTheSubscriberOneAtATimeWithinDemand() {
        let center = NotificationCenter()
        let detector = ReentryDetector()
        let perThread = 200
        let threads = 8
        let limit = threads * perThread / 2
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(limit))
        subscriber.onReceiveValue { _ in detector.enter(spin: 50) {} }
        center.publisher(for: name).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                if thread == 0 && index == perThread / 2 { subscriber.request(.max(1)) }
                post(thread * perThread + index, to: center)
            }
        }
        #expect(detector.overlaps == 0)
        #expect(subscriber.values.count == limit + 1)
        #expect(Set(tags(subscriber.values)).count == limit + 1)
        subscriber.cancel()
        post(-1, to: center)
        #expect(subscriber.values.count == limit + 1)
    }

    @Test func cancellingWhileOtherThreadsPostStopsDeliveries() {
        let center = NotificationCenter()
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: name).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<200 {
                if thread == 0 && index == 100 { subscriber.cancel() }
                post(index, to: center)
            }
        }
        let count = subscriber.values.count
        post(-1, to: center)
        #expect(subscriber.values.count == count)
        #expect(count < 800)
    }
}
