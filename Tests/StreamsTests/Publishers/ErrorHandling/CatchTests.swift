import Streams
import StreamsTesting
import Testing

@Suite struct CatchTests {
    @Test func failureSwitchesToTheReplacement() {
        let subject = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.catch { _ in [10, 11].publisher }.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(FlowError()))
        subject.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .value(10), .value(11), .completion(.finished)])
    }

    @Test func handlerReceivesTheUpstreamError() {
        var caught: [FlowError] = []
        let subscriber = TestSubscriber<Int, Never>()
        Fail<Int, FlowError>(error: FlowError(5)).catch { error -> Just<Int> in
            caught.append(error)
            return Just(error.code)
        }.subscribe(subscriber)
        #expect(caught == [FlowError(5)])
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func normalCompletionNeverCallsTheHandler() {
        var calls = 0
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: FlowError.self).catch { _ -> Just<Int> in
            calls += 1
            return Just(0)
        }.subscribe(subscriber)
        #expect(calls == 0)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func outstandingDemandCarriesOverToTheReplacement() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .none)
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.subscription?.history == [.requested(.max(3))])
        upstream.send(1)
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.subscription?.history == [.requested(.max(2))])
        subscriber.request(.max(4))
        #expect(replacement.subscription?.history == [.requested(.max(2)), .requested(.max(4))])
        #expect(replacement.send(10) == Subscribers.Demand.none)
        replacement.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(10), .completion(.finished)])
    }

    @Test func demandReturnedFromValuesCountsToo() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.subscription?.history == [.requested(.max(2))])
    }

    @Test func noDemandLeftMeansNoRequestUntilDownstreamAsks() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.subscription?.history == [])
        subscriber.request(.max(1))
        #expect(replacement.subscription?.history == [.requested(.max(1))])
    }

    @Test func boundedDemandIsHonouredAcrossTheSwitch() {
        let subject = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.catch { _ in [10, 11, 12].publisher }.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .value(1), .value(10)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 10, 11])
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(10), .value(11), .value(12), .completion(.finished)])
    }

    @Test func replacementFailureEndsTheStream() {
        let subscriber = TestSubscriber<Int, FlowError>()
        Fail<Int, FlowError>(error: FlowError(1)).catch { _ in Fail<Int, FlowError>(error: FlowError(2)) }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(2)))])
    }

    @Test func cancelBeforeTheFailureCancelsUpstreamAndIgnoresItsFailure() {
        let upstream = FlowPublisher<Int, FlowError>()
        var handlerCalls = 0
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.catch { _ -> Just<Int> in
            handlerCalls += 1
            return Just(0)
        }.subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(50))
        #expect(upstream.subscription?.history == [.requested(.max(1)), .cancelled])
        // Like Combine, a value the upstream still sends after the cancel goes downstream.
        #expect(upstream.send(1) == .max(2))
        upstream.send(completion: .failure(FlowError()))
        #expect(handlerCalls == 0)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancelAfterTheSwitchCancelsTheReplacementAndDropsItsCompletion() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(4))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(FlowError()))
        subscriber.cancel()
        #expect(replacement.subscription?.history == [.requested(.unlimited), .cancelled])
        // Like Combine, a value the replacement still sends after the cancel goes downstream.
        #expect(replacement.send(1) == .max(4))
        replacement.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancelWhileTheReplacementSubscribesIsIgnored() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        replacement.onSubscribe { subscriber.cancel() }
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(FlowError()))
        #expect(upstream.subscription?.history == [.requested(.max(3))])
        #expect(replacement.subscription?.history == [.requested(.max(3))])
        replacement.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aValueNobodyAskedForStopsTheProgram() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            upstream.catch { _ in Just(0) }.subscribe(subscriber)
            upstream.send(1)
        }
        expectTrapMessage(trap1, contains: "Catch received a value from its upstream with no outstanding demand")
    }

    @Test func aSecondUpstreamFailureStopsTheProgram() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            let replacement = FlowPublisher<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            upstream.catch { _ in replacement }.subscribe(subscriber)
            upstream.send(completion: .failure(FlowError()))
            upstream.send(completion: .failure(FlowError()))
        }
        expectTrapMessage(
            trap2,
            contains: "Catch received a failure from its upstream before its subscription or after an earlier failure")
    }

    @Test func anUpstreamFailureFromInsideTheHandlerStopsTheProgram() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            let subscriber = TestSubscriber<Int, Never>()
            upstream.catch { _ -> Just<Int> in
                upstream.send(completion: .failure(FlowError(2)))
                return Just(0)
            }.subscribe(subscriber)
            upstream.send(completion: .failure(FlowError()))
        }
        expectTrapMessage(
            trap3,
            contains: "Catch received a failure from its upstream before its subscription or after an earlier failure")
    }

    @Test func completionsAfterTheEndAreIgnored() {
        let upstream = FlowPublisher<Int, FlowError>()
        var handlerCalls = 0
        let subscriber = TestSubscriber<Int, Never>()
        upstream.catch { _ -> Just<Int> in
            handlerCalls += 1
            return Just(0)
        }.subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(FlowError()))
        #expect(handlerCalls == 0)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func bothSubscribersShareTheSubscriptionsIdentifier() {
        let upstream = IdentifyingPublisher<Int, FlowError>()
        let replacement = IdentifyingPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(upstream.identifier == subscription?.combineIdentifier)
        #expect(upstream.subscriberType != subscription.map { "\(type(of: $0))" })
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.identifier == subscription?.combineIdentifier)
        #expect(replacement.subscriberType != upstream.subscriberType)
    }

    @Test func reentrantCancelFromAReplacementValue() {
        let subject = PassthroughSubject<Int, FlowError>()
        let replacement = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 10 { subscriber.cancel() }
        }
        subject.catch { _ in replacement }.subscribe(subscriber)
        subject.send(completion: .failure(FlowError()))
        replacement.send(10)
        replacement.send(11)
        #expect(subscriber.events == [.subscription, .value(10)])
    }

    @Test func describesItselfAsCatch() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Catch")
        #expect(upstream.subscriberDescription == "Catch")
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.subscriberDescription == "Catch")
    }

    @Test func mirrorShowsTheDownstreamAndTheOutstandingDemand() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .none)
        upstream.catch { _ in Just(0) }.subscribe(subscriber)
        upstream.send(1)
        let children = subscriber.subscription.map { Array(Mirror(reflecting: $0).children) } ?? []
        #expect(children.map(\.label) == ["downstream", "demand"])
        #expect(children.last?.value as? Subscribers.Demand == .max(2))
    }

    @Test func releasesTheHandlerOnceTheReplacementIsChosen() {
        let subject = PassthroughSubject<Int, FlowError>()
        let replacement = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        weak var weakToken: FlowToken?
        do {
            let token = FlowToken()
            weakToken = token
            subject.catch { _ in withExtendedLifetime(token) { replacement } }.subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subject.send(completion: .failure(FlowError()))
        #expect(weakToken == nil)
        replacement.send(7)
        #expect(subscriber.events == [.subscription, .value(7)])
    }

    @Test func releasesTheHandlerAndSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, FlowError>()
        weak var weakToken: FlowToken?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let token = FlowToken()
            weakToken = token
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.catch { _ in withExtendedLifetime(token) { Just(0) } }.subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterTheReplacementFinishes() {
        let subject = PassthroughSubject<Int, FlowError>()
        let replacement = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.catch { _ in replacement }.subscribe(subscriber)
            subject.send(completion: .failure(FlowError()))
            replacement.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
    }
}

@Suite struct TryCatchTests {
    @Test func handlerReturningAPublisherContinuesTheStream() {
        let subject = PassthroughSubject<Int, FlowError>()
        var values: [Int] = []
        var completion: Subscribers.Completion<any Error>?
        let cancellable = subject.tryCatch { _ in [7, 8].publisher }
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { values.append($0) })
        subject.send(1)
        subject.send(completion: .failure(FlowError()))
        #expect(values == [1, 7, 8])
        guard case .finished? = completion else {
            Issue.record("expected .finished, got \(String(describing: completion))")
            return
        }
        cancellable.cancel()
    }

    @Test func thrownErrorFailsTheStream() {
        var completion: Subscribers.Completion<any Error>?
        let cancellable = Fail<Int, FlowError>(error: FlowError(1))
            .tryCatch { error -> Just<Int> in throw FlowError(error.code + 10) }
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
        guard case .failure(let error)? = completion else {
            Issue.record("expected a failure, got \(String(describing: completion))")
            return
        }
        #expect(error as? FlowError == FlowError(11))
        cancellable.cancel()
    }

    @Test func replacementFailureIsPassedOnAsAnyError() {
        let subscriber = TestSubscriber<Int, any Error>()
        Fail<Int, FlowError>(error: FlowError(1))
            .tryCatch { _ in Fail<Int, FlowError>(error: FlowError(3)) }
            .subscribe(subscriber)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error as? FlowError == FlowError(3))
    }

    @Test func outstandingDemandCarriesOverToTheReplacement() {
        let upstream = FlowPublisher<Int, FlowError>()
        let replacement = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(5))
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(FlowError()))
        #expect(replacement.subscription?.history == [.requested(.max(3))])
        #expect(subscriber.values == [1, 2])
    }

    @Test func describesItselfAsTryCatch() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ in Just(0) }.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "TryCatch")
        #expect(upstream.subscriberDescription == "TryCatch")
    }
    @Test func afterTheHandlerThrowsUpstreamValuesStillPassLikeCombine() {
        let upstream = FlowPublisher<Int, FlowError>()
        var handlerCalls = 0
        var values: [Int] = []
        var completions: [String] = []
        upstream.tryCatch { _ -> Just<Int> in
            handlerCalls += 1
            throw FlowError(8)
        }.subscribe(
            AnySubscriber<Int, any Error>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: { value in
                    values.append(value)
                    return .none
                },
                receiveCompletion: { completions.append("\($0)") }))
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        #expect(completions == ["\(Subscribers.Completion<any Error>.failure(FlowError(8)))"])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        upstream.send(completion: .finished)
        #expect(handlerCalls == 1)
        #expect(values == [1, 2])
        #expect(completions.count == 1)
    }

    @Test func aValueNobodyAskedForStopsTheProgram() async {
        let trap4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            upstream.tryCatch { _ in Just(0) }.subscribe(AnySubscriber<Int, any Error>())
            upstream.send(1)
        }
        expectTrapMessage(trap4, contains: "TryCatch received a value from its upstream with no outstanding demand")
    }
}
