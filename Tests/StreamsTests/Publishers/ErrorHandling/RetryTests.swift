import Streams
import StreamsTesting
import Testing

@Suite struct RetryTests {
    @Test func resubscribesAfterAFailureAndKeepsGoing() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.retry(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(FlowError(1)))
        #expect(upstream.subscribeCount == 2)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func givesUpAfterTheGivenNumberOfRetries() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.retry(2).subscribe(subscriber)
        upstream.send(completion: .failure(FlowError(1)))
        upstream.send(completion: .failure(FlowError(2)))
        #expect(subscriber.events == [.subscription])
        upstream.send(completion: .failure(FlowError(3)))
        #expect(upstream.subscribeCount == 3)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(3)))])
        upstream.send(completion: .failure(FlowError(4)))
        #expect(upstream.subscribeCount == 3)
    }

    @Test func zeroRetriesFailsAtOnce() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1))
        upstream.retry(0).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.subscribeCount == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError()))])
    }

    @Test func outstandingDemandCarriesOverToEachNewSubscription() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(5))
        upstream.retry(3).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        let history = upstream.subscriptions.map(\.history)
        #expect(history == [[.requested(.max(5))], [.requested(.max(4))], [.requested(.max(3))]])
    }

    @Test func demandReturnedFromValuesIsRequestedFromTheLiveSubscription() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.retry(1).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.subscription?.history == [.requested(.max(2))])
    }

    @Test func boundedDemandIsHonouredAcrossAttempts() {
        var attempt = 0
        let flaky = FlowClosurePublisher<Int, FlowError> { subscriber in
            attempt += 1
            if attempt == 1 {
                Fail<Int, FlowError>(error: FlowError()).subscribe(subscriber)
            } else {
                [1, 2, 3].publisher.setFailureType(to: FlowError.self).subscribe(subscriber)
            }
        }
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(2))
        flaky.retry(1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func synchronousFailuresRetryInALoopNotARecursion() {
        var subscriptions = 0
        let subscriber = TestSubscriber<Int, FlowError>()
        Fail<Int, FlowError>(error: FlowError())
            .handleEvents(receiveSubscription: { _ in subscriptions += 1 })
            .retry(20_000)
            .subscribe(subscriber)
        #expect(subscriptions == 20_001)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError()))])
    }

    @Test func negativeRetriesMeanNoLimit() {
        var attempt = 0
        let flaky = FlowClosurePublisher<Int, FlowError> { subscriber in
            attempt += 1
            if attempt <= 100 {
                Fail<Int, FlowError>(error: FlowError()).subscribe(subscriber)
            } else {
                Just(attempt).setFailureType(to: FlowError.self).subscribe(subscriber)
            }
        }
        let subscriber = TestSubscriber<Int, FlowError>()
        flaky.retry(-1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(101), .completion(.finished)])
        let unlimited = Publishers.Retry(upstream: flaky, retries: nil)
        #expect(unlimited.retries == nil)
    }

    @Test func cancelCancelsTheLiveSubscriptionAndStopsRetrying() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.retry(5).subscribe(subscriber)
        upstream.send(completion: .failure(FlowError()))
        subscriber.cancel()
        #expect(
            upstream.subscriptions.map(\.history) == [[.requested(.unlimited)], [.requested(.unlimited), .cancelled]])
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.subscribeCount == 2)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantCancelFromReceiveValue() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        upstream.retry(5).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.subscribeCount == 1)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func describesItselfAsRetry() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.retry(1).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Retry")
        #expect(upstream.subscriberDescription == "Retry")
    }

    @Test func releasesTheSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, FlowError>()
        weak var weakSubscriber: TestSubscriber<Int, FlowError>?
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            subject.retry(3).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberAfterTheFinalFailure() {
        weak var weakSubscriber: TestSubscriber<Int, FlowError>?
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            Fail<Int, FlowError>(error: FlowError()).retry(3).subscribe(subscriber)
            #expect(subscriber.completion == .failure(FlowError()))
        }
        #expect(weakSubscriber == nil)
    }

    @Test func justIsReturnedUnchanged() {
        let just: Just<Int> = Just(1).retry(3)
        #expect(just.output == 1)
    }
    @Test func cancelReleasesTheSubscriberEvenWhileTheUpstreamKeepsTheOperator() {
        let upstream = FlowPublisher<Int, FlowError>()
        weak var weakSubscriber: TestSubscriber<Int, FlowError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            upstream.retry(3).subscribe(subscriber)
            upstream.send(1)
            subscription = subscriber.subscription
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
        #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
    }

    @Test func aValueWhileTheNextSubscriptionIsOnItsWayStillGoesDownstream() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(3), demandPerValue: .max(2))
        var sent: [Subscribers.Demand] = []
        upstream.retry(1).subscribe(subscriber)
        upstream.onSubscribe { sent.append(upstream.send(1)) }
        upstream.send(completion: .failure(FlowError()))
        #expect(sent == [.none])
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.subscription?.history == [.requested(.max(4))])
    }

    @Test func aCompletionBeforeTheSubscriptionGoesDownstream() {
        var source: AnySubscriber<Int, FlowError>?
        let subscriber = TestSubscriber<Int, FlowError>()
        FlowClosurePublisher<Int, FlowError> { source = $0 }.retry(2).subscribe(subscriber)
        source?.receive(completion: .finished)
        #expect(subscriber.events == [.completion(.finished)])
    }

    @Test func aValueNobodyAskedForStopsTheProgram() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
            upstream.retry(2).subscribe(subscriber)
            upstream.send(1)
        }
        expectTrapMessage(trap1, contains: "Retry received a value from its upstream with no outstanding demand")
    }
}
