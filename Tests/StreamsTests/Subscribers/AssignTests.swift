import Streams
import Testing

@Suite struct AssignTests {
    final class Model {
        var count = 0
        var history: [Int] = []
        var latest: Int = 0 { didSet { history.append(latest) } }
    }

    @Test func assignsEachValue() {
        let model = Model()
        let cancellable = [1, 2, 3].publisher.assign(to: \.latest, on: model)
        #expect(model.history == [1, 2, 3])
        _ = cancellable
    }

    @Test func stopsAfterCancelAndReleasesTheObject() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.count, on: model)
        }
        subject.send(4)
        #expect(weakModel?.count == 4)
        cancellable?.cancel()
        #expect(weakModel == nil)
    }

    @Test func releasesTheObjectOnCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakModel: Model?
        let assign: Subscribers.Assign<Model, Int>
        do {
            let model = Model()
            weakModel = model
            assign = Subscribers.Assign(object: model, keyPath: \.count)
        }
        subject.subscribe(assign)
        subject.send(2)
        #expect(assign.object?.count == 2)
        subject.send(completion: .finished)
        #expect(assign.object == nil)
        #expect(weakModel == nil)
    }

    @Test func reflection() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        #expect(assign.description == "Assign Model.")
        #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath", "status"])
    }

    @Test func valuesBeforeTheSubscriptionOrAfterTheEndAreNotAssigned() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.count)
        #expect(assign.receive(5) == .none)
        #expect(model.count == 0)
        let subject = PassthroughSubject<Int, Never>()
        subject.subscribe(assign)
        subject.send(7)
        #expect(model.count == 7)
        subject.send(completion: .finished)
        #expect(assign.receive(9) == .none)
        #expect(model.count == 7)
    }

    @Test func beforeItsSubscriptionACompletionOrCancelIsIgnoredAndTheObjectKept() {
        weak var weakModel: Model?
        let assign: Subscribers.Assign<Model, Int>
        do {
            let model = Model()
            weakModel = model
            assign = Subscribers.Assign(object: model, keyPath: \.count)
        }
        assign.receive(completion: .finished)
        assign.cancel()
        #expect(weakModel != nil, "as in Combine, nothing is let go before the subscription")
        #expect(assign.object === weakModel)
        let subject = PassthroughSubject<Int, Never>()
        subject.subscribe(assign)
        subject.send(3)
        #expect(weakModel?.count == 3, "the subscription that arrives later is still accepted")
        assign.cancel()
        #expect(weakModel == nil)
    }
}
