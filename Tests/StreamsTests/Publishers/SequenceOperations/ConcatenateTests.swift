import Streams
import StreamsTesting
import Testing

@Suite struct ConcatenateTests {
    @Test func prependAndAppendInEveryForm() {
        func values<P: Publisher>(_ publisher: P) -> [Int] where P.Output == Int, P.Failure == Never {
            let subscriber = TestSubscriber<Int, Never>()
            publisher.subscribe(subscriber)
            #expect(subscriber.completion == .finished)
            return subscriber.values
        }
        #expect(values(Empty<Int, Never>().prepend(1, 2)) == [1, 2])
        #expect(values((3...4).publisher.prepend(1, 2)) == [1, 2, 3, 4])
        #expect(values((3...4).publisher.prepend(1...2)) == [1, 2, 3, 4])
        #expect(values((3...4).publisher.prepend([1, 2].publisher)) == [1, 2, 3, 4])
        #expect(values((1...2).publisher.append(3, 4)) == [1, 2, 3, 4])
        #expect(values((1...2).publisher.append(3...4)) == [1, 2, 3, 4])
        #expect(values((1...2).publisher.append([3, 4].publisher)) == [1, 2, 3, 4])
        #expect(values(Just(2).prepend(1).append(3)) == [1, 2, 3])
    }

    @Test func operatorsBuildConcatenateOfSequencePublishers() {
        let subject = PassthroughSubject<Int, FlowError>()
        let prepended:
            Publishers.Concatenate<Publishers.Sequence<[Int], FlowError>, PassthroughSubject<Int, FlowError>> =
                subject.prepend(1, 2)
        #expect(prepended.prefix.sequence == [1, 2])
        let appended:
            Publishers.Concatenate<PassthroughSubject<Int, FlowError>, Publishers.Sequence<ClosedRange<Int>, FlowError>> =
                subject.append(3...4)
        #expect(appended.suffix.sequence == 3...4)
        #expect(
            Publishers.Concatenate(prefix: [1].publisher, suffix: [2].publisher) == [1].publisher.append([2].publisher))
    }

    @Test func sequenceAndJustFuseIntoOneSequence() {
        let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
        #expect(appended.sequence == [1, 2, 3, 4])
        let prepended: Publishers.Sequence<[Int], Never> = [3].publisher.prepend([1, 2]).prepend([0].publisher)
        #expect(prepended.sequence == [0, 1, 2, 3])
        let both: Publishers.Sequence<[Int], Never> = [2].publisher.append([3].publisher).prepend(1)
        #expect(both.sequence == [1, 2, 3])
        let fromJust: Publishers.Sequence<[Int], Never> = Just(2).prepend(0, 1).append(3)
        #expect(fromJust.sequence == [0, 1, 2, 3])
        let justAppended: Publishers.Sequence<[Int], Never> = Just(1).append([2, 3])
        #expect(justAppended.sequence == [1, 2, 3])
    }

    @Test func suffixIsSubscribedOnlyAfterThePrefixFinishes() {
        let prefix = PassthroughSubject<Int, Never>()
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        #expect(suffix.subscribeCount == 0)
        prefix.send(completion: .finished)
        #expect(suffix.subscribeCount == 1)
        #expect(suffix.send(2) == Subscribers.Demand.none)
        suffix.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func outstandingDemandCarriesOverToTheSuffix() {
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5))
        [1, 2].publisher.append(suffix).subscribe(subscriber)
        #expect(suffix.subscription?.history == [.requested(.max(3))])
        subscriber.request(.max(2))
        #expect(suffix.subscription?.history == [.requested(.max(3)), .requested(.max(2))])

        let exhausted = FlowPublisher<Int, Never>()
        let bounded = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2].publisher.append(exhausted).subscribe(bounded)
        #expect(exhausted.subscription?.history == [])
        bounded.request(.max(1))
        #expect(exhausted.subscription?.history == [.requested(.max(1))])
    }

    @Test func demandReturnedFromPrefixValuesCarriesOverToo() {
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        [1].publisher.append(suffix).subscribe(subscriber)
        #expect(suffix.subscription?.history == [.requested(.max(2))])
    }

    @Test func boundedDemandIsHonouredAcrossTheBoundary() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.append(3, 4).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func prefixFailureEndsEverything() {
        let prefix = PassthroughSubject<Int, FlowError>()
        let suffix = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        prefix.send(completion: .failure(FlowError()))
        #expect(suffix.subscribeCount == 0)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError()))])
        subscriber.request(.max(1))
        #expect(suffix.subscribeCount == 0)
    }

    @Test func suffixFailureIsPassedOn() {
        let subscriber = TestSubscriber<Int, FlowError>()
        Publishers.Sequence<[Int], FlowError>(sequence: [1]).append(Fail(error: FlowError(2))).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(2)))])
    }

    @Test func cancelDuringThePrefixNeverSubscribesTheSuffix() {
        let prefix = FlowPublisher<Int, Never>()
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(subscriber)
        subscriber.cancel()
        #expect(prefix.subscription?.history == [.requested(.unlimited), .cancelled])
        prefix.send(completion: .finished)
        #expect(suffix.subscribeCount == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelDuringTheSuffixCancelsIt() {
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        [1].publisher.append(suffix).subscribe(subscriber)
        subscriber.cancel()
        #expect(suffix.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(suffix.send(2) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func reentrantRequestsCrossTheBoundary() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        [1, 2].publisher.append(3, 4).subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func reentrantCancelInThePrefix() {
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [1, 2].publisher.append(suffix).subscribe(subscriber)
        #expect(suffix.subscribeCount == 0)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func prependThenRemoveDuplicates() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.prepend(0).removeDuplicates().subscribe(subscriber)
        for value in [0, 0, 1, 1, 2, 0] { subject.send(value) }
        #expect(subscriber.values == [0, 1, 2, 0])
    }

    @Test func describesItselfAsConcatenate() {
        let prefix = FlowPublisher<Int, Never>()
        let suffix = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Concatenate")
        #expect(prefix.subscriberDescription == "Concatenate")
        prefix.send(completion: .finished)
        #expect(suffix.subscriberDescription == "Concatenate")
    }

    @Test func mirrorHasNoChildren() {
        let subscriber = TestSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().append(1).subscribe(subscriber)
        #expect(subscriber.subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func releasesTheSuffixOnceItIsSubscribed() {
        let prefix = PassthroughSubject<Int, Never>()
        let suffix = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        weak var weakToken: FlowToken?
        do {
            let token = FlowToken()
            weakToken = token
            let wrapped = FlowClosurePublisher<Int, Never> { subscriber in
                withExtendedLifetime(token) { suffix.subscribe(subscriber) }
            }
            prefix.append(wrapped).subscribe(subscriber)
        }
        #expect(weakToken != nil)
        prefix.send(completion: .finished)
        #expect(weakToken == nil)
        suffix.send(5)
        #expect(subscriber.events == [.subscription, .value(5)])
    }

    @Test func releasesTheSuffixAndSubscriberAfterCancel() {
        let prefix = PassthroughSubject<Int, Never>()
        weak var weakToken: FlowToken?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let token = FlowToken()
            weakToken = token
            let suffix = FlowClosurePublisher<Int, Never> { subscriber in
                withExtendedLifetime(token) { Empty<Int, Never>().subscribe(subscriber) }
            }
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            prefix.append(suffix).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberAfterCompletion() {
        let prefix = PassthroughSubject<Int, Never>()
        let suffix = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            prefix.append(suffix).subscribe(subscriber)
            prefix.send(completion: .finished)
            suffix.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
    }
    @Test func prefixValuesBeyondTheDemandAreDropped() {
        let prefix = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(2))
        var sent: [Subscribers.Demand] = []
        subscriber.onReceiveValue { value in
            if value < 5 { sent.append(prefix.send(value + 1)) }
        }
        prefix.append(9).subscribe(subscriber)
        #expect(prefix.send(1) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(sent == [.none, .none])
    }

    @Test func aRequestForNoValuesIsPassedOnAndDemandCarriesOver() {
        let prefix = FlowPublisher<Int, FlowError>()
        let suffix = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(10), demandPerValue: .max(3))
        suffix.onSubscribe { subscriber.request(.max(7)) }
        prefix.append(suffix).subscribe(subscriber)
        subscriber.request(.none)
        #expect(prefix.subscription?.history == [.requested(.max(10)), .requested(.none)])
        #expect(prefix.send(3) == .max(3))
        prefix.send(completion: .finished)
        #expect(suffix.subscription?.history == [.requested(.max(19))])
        subscriber.request(.unlimited)
        suffix.send(completion: .finished)
        subscriber.request(.max(42))
        #expect(suffix.subscription?.history == [.requested(.max(19)), .requested(.unlimited)])
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func bothSubscribersShareTheSubscriptionsIdentifier() {
        let prefix = IdentifyingPublisher<Int, FlowError>()
        let suffix = IdentifyingPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        prefix.append(suffix).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(prefix.identifier == subscription?.combineIdentifier)
        #expect(suffix.identifier == nil)
        #expect(prefix.subscriberType != subscription.map { "\(type(of: $0))" })
        prefix.send(completion: .finished)
        #expect(suffix.identifier == subscription?.combineIdentifier)
        #expect(suffix.subscriberType != prefix.subscriberType)
    }
}
