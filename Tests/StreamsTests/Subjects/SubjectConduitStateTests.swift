import Testing

@testable import Streams

/// One subscription's decisions on their own, single-threaded: demand taken and added, the current
/// value owed and queued, an observable object's publisher ignoring demand, completions held until the
/// subscriber has its subscription, and nothing after the end.
@Suite struct SubjectConduitStateTests {
    typealias State = SubjectConduitState

    func passthrough() -> State { State(kind: .passthrough, keepsCurrentValue: false) }
    func currentValue() -> State { State(kind: .currentValue, keepsCurrentValue: true) }
    func observableObject() -> State { State(kind: .observableObject, keepsCurrentValue: false) }

    // MARK: Demand

    @Test func aValueTakesOneUnitOfDemandAndNoneIsRefused() {
        var state = passthrough()
        let taken1 = state.takeDemand(forCurrentValue: false, onAttachingThread: true)
        #expect(!taken1)
        let step2 = state.addDemand(.max(2))
        #expect(step2 == .acknowledge)
        let taken3 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(taken3)
        #expect(state.demand == .max(1))
        let taken4 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(taken4)
        let taken5 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(!taken5)
        #expect(state.demand == .none)
    }

    @Test func unlimitedDemandDeliversFreelyUntilTheEnd() {
        var state = passthrough()
        #expect(!state.deliversFreely)
        _ = state.addDemand(.max(3))
        #expect(!state.deliversFreely)
        _ = state.addDemand(.unlimited)
        #expect(state.deliversFreely)
        let taken6 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(taken6)
        #expect(state.demand == .unlimited)
        let wasLive7 = state.end()
        #expect(wasLive7)
        #expect(!state.deliversFreely)
    }

    @Test func onlyAPassthroughSubjectIsToldOfDemand() {
        var passthrough = passthrough()
        let step8 = passthrough.addDemand(.max(1))
        #expect(step8 == .acknowledge)
        var published = State(kind: .published, keepsCurrentValue: true)
        let step9 = published.addDemand(.max(1))
        #expect(step9 == .sendCurrentValue)
        let step10 = published.addDemand(.max(1))
        #expect(step10 == .none)
    }

    // MARK: The current value

    @Test func theCurrentValueIsOwedFromTheStartAndQueuedOnceByDemand() {
        var state = currentValue()
        #expect(state.owesCurrentValue)
        #expect(!state.deliversFreely)
        let step11 = state.addDemand(.unlimited)
        #expect(step11 == .sendCurrentValue)
        #expect(state.currentValueQueued)
        // Demand added while the delivery is queued queues nothing more.
        let step12 = state.addDemand(.max(1))
        #expect(step12 == .none)
        // Owing the current value, the subscription does not deliver freely even with unlimited demand.
        #expect(!state.deliversFreely)
        let taken13 = state.takeDemand(forCurrentValue: true, onAttachingThread: false)
        #expect(taken13)
        #expect(!state.currentValueQueued)
        #expect(!state.owesCurrentValue)
        #expect(state.deliversFreely)
    }

    @Test func aValueDeliveredBeforeTheQueuedCurrentValueSettlesTheDebt() {
        var state = currentValue()
        let step14 = state.addDemand(.max(2))
        #expect(step14 == .sendCurrentValue)
        let taken15 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(taken15)
        #expect(!state.owesCurrentValue)
        // The queued delivery of the current value then finds nothing owed and takes no demand.
        let taken16 = state.takeDemand(forCurrentValue: true, onAttachingThread: false)
        #expect(!taken16)
        #expect(!state.currentValueQueued)
        #expect(state.demand == .max(1))
    }

    @Test func aValueMissedForLackOfDemandIsOwedAgain() {
        var state = currentValue()
        let step17 = state.addDemand(.max(1))
        #expect(step17 == .sendCurrentValue)
        let taken18 = state.takeDemand(forCurrentValue: true, onAttachingThread: false)
        #expect(taken18)
        #expect(!state.owesCurrentValue)
        let taken19 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(!taken19)
        #expect(state.owesCurrentValue)
        let step20 = state.addDemand(.max(1))
        #expect(step20 == .sendCurrentValue)
    }

    @Test func aPassthroughSubscriptionIsNeverOwedAValue() {
        var state = passthrough()
        let taken21 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(!taken21)
        #expect(!state.owesCurrentValue)
        let taken22 = state.takeDemand(forCurrentValue: true, onAttachingThread: false)
        #expect(!taken22)
    }

    // MARK: An observable object's publisher

    @Test func anObservableObjectsPublisherIgnoresDemandOnceTheSubscriberHasItsSubscription() {
        var state = observableObject()
        let taken23 = state.takeDemand(forCurrentValue: false, onAttachingThread: false)
        #expect(!taken23)
        let taken24 = state.takeDemand(forCurrentValue: false, onAttachingThread: true)
        #expect(taken24)
        #expect(!state.deliversFreely)
        state.subscriptionDelivered()
        #expect(state.deliversFreely)
        var asked = false
        func onAttachingThread() -> Bool {
            asked = true
            return false
        }
        let taken25 = state.takeDemand(forCurrentValue: false, onAttachingThread: onAttachingThread())
        #expect(taken25)
        #expect(!asked, "with its subscription delivered, the thread is not looked at")
        #expect(state.demand == .none)
        let wasLive26 = state.end()
        #expect(wasLive26)
        let taken27 = state.takeDemand(forCurrentValue: false, onAttachingThread: true)
        #expect(!taken27)
        #expect(!state.deliversFreely)
    }

    // MARK: Completion and the end

    @Test func aCompletionFromAnotherThreadWaitsForTheSubscription() {
        var state = passthrough()
        let completion28 = state.complete(onAttachingThread: false)
        #expect(completion28 == .hold)
        #expect(state.isLive)
        state.subscriptionDelivered()
        let completion29 = state.complete(onAttachingThread: false)
        #expect(completion29 == .deliver)
        #expect(!state.isLive)
    }

    @Test func aCompletionOnTheAttachingThreadGoesDownAtOnce() {
        var state = currentValue()
        let completion30 = state.complete(onAttachingThread: true)
        #expect(completion30 == .deliver)
        let completion31 = state.complete(onAttachingThread: true)
        #expect(completion31 == .drop)
    }

    @Test func afterTheEndNothingIsDeliveredAndDemandIsIgnored() {
        var state = currentValue()
        let wasLive32 = state.end()
        #expect(wasLive32)
        let wasLive33 = state.end()
        #expect(!wasLive33)
        let step34 = state.addDemand(.max(5))
        #expect(step34 == .none)
        #expect(state.demand == .none)
        let taken35 = state.takeDemand(forCurrentValue: true, onAttachingThread: true)
        #expect(!taken35)
        state.subscriptionDelivered()
        let completion36 = state.complete(onAttachingThread: false)
        #expect(completion36 == .drop)
    }
}
