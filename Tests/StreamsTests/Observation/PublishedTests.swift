import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct PublishedTests {
    final class Contact: ObservableObject {
        @Published var name: String
        @Published var age: Int

        init(name: String, age: Int) {
            self.name = name
            self.age = age
        }
    }

    class Base: ObservableObject {
        @Published var base = 0
    }

    final class Derived: Base {
        @Published var derived = ""
    }

    final class Plain {
        @Published var value = 1
    }

    @Test func objectWillChangeFiresBeforeTheChange() {
        let contact = Contact(name: "John", age: 24)
        var seen: [Int] = []
        let cancellable = contact.objectWillChange.sink { seen.append(contact.age) }
        contact.age += 1
        contact.age += 1
        contact.name = "Jane"
        #expect(seen == [24, 25, 26])
        #expect(contact.age == 26)
        _ = cancellable
    }

    @Test func projectedPublisherReplaysThenPublishesBeforeStoring() {
        let contact = Contact(name: "John", age: 24)
        var log: [String] = []
        let cancellable = contact.$age.sink { log.append("\($0) while stored \(contact.age)") }
        contact.age = 30
        #expect(log == ["24 while stored 24", "30 while stored 24"])
        #expect(contact.age == 30)
        _ = cancellable
    }

    @Test func orderOfSignalsForOneWrite() {
        let contact = Contact(name: "John", age: 1)
        var log: [String] = []
        var cancellables = Set<AnyCancellable>()
        contact.objectWillChange.sink { log.append("will \(contact.age)") }.store(in: &cancellables)
        contact.$age.dropFirst().sink { log.append("published \($0)") }.store(in: &cancellables)
        contact.objectDidChange.sink { log.append("did \(contact.age)") }.store(in: &cancellables)
        contact.age = 2
        #expect(log == ["will 1", "published 2", "did 2"])
    }

    @Test func objectWillChangeIsCreatedOnceAndKept() {
        let contact = Contact(name: "A", age: 1)
        #expect(contact.objectWillChange === contact.objectWillChange)
        #expect(contact.objectDidChange === contact.objectDidChange)
        #expect(contact.objectWillChange !== Contact(name: "B", age: 2).objectWillChange)
    }

    @Test func superclassAndSubclassPropertiesBothNotify() {
        let object = Derived()
        var count = 0
        let cancellable = object.objectWillChange.sink { count += 1 }
        object.base = 1
        object.derived = "x"
        #expect(count == 2)
        _ = cancellable
    }

    @Test func writesBeforeAnyObserverAreSilentAndLaterOnesAreSeen() {
        let contact = Contact(name: "A", age: 1)
        contact.age = 2
        var count = 0
        let cancellable = contact.objectWillChange.sink { count += 1 }
        contact.age = 3
        #expect(count == 1)
        _ = cancellable
    }

    /// An object whose custom mirror shows none of its properties: they are not told of its signals
    /// when they are made, and find them on their next write instead.
    final class Secretive: ObservableObject, CustomReflectable {
        @Published var value = 0
        var customMirror: Mirror { Mirror(self, children: [Mirror.Child]()) }
    }

    @Test func anObjectWhoseMirrorHidesItsPropertiesStillAnnouncesTheirChanges() {
        let object = Secretive()
        var log: [String] = []
        var cancellables = Set<AnyCancellable>()
        object.objectWillChange.sink { log.append("will \(object.value)") }.store(in: &cancellables)
        object.objectDidChange.sink { log.append("did \(object.value)") }.store(in: &cancellables)
        object.value = 1
        object.value = 2
        #expect(log == ["will 0", "did 1", "will 1", "did 2"])
    }

    @Test func everyPropertyOfAnObservedObjectAnnouncesItsChangesFromTheFirstWrite() {
        let contacts = (0..<3).map { Contact(name: "\($0)", age: $0) }
        var log: [String] = []
        var cancellables = Set<AnyCancellable>()
        for contact in contacts {
            contact.objectWillChange.sink { log.append("\(contact.name) will change") }.store(in: &cancellables)
        }
        contacts[2].age = 30
        contacts[0].name = "zero"
        contacts[1].age = 10
        #expect(log == ["2 will change", "0 will change", "1 will change"])
    }

    @Test func worksInAPlainClass() {
        let plain = Plain()
        var values: [Int] = []
        let cancellable = plain.$value.sink { values.append($0) }
        plain.value = 2
        #expect(values == [1, 2])
        _ = cancellable
    }

    @Test func projectedSubscriptionDescribesItselfAsPublishedSubject() throws {
        let contact = Contact(name: "John", age: 24)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        contact.$age.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "PublishedSubject")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "PublishedSubject")
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.map(\.label) == ["parent", "downstream", "demand", "subject"])
        #expect(String(describing: children[0].value).contains("PublishedSubject"))
        #expect(String(describing: children[2].value) == "max(0)")
        #expect(String(describing: children[3].value).contains("PublishedSubject"))
    }

    @Test func aSubscriberWithoutDemandGetsTheLatestValueWhenItAsks() {
        let contact = Contact(name: "John", age: 0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        contact.$age.subscribe(subscriber)
        contact.age = 1
        contact.age = 2
        contact.age = 3
        #expect(subscriber.values == [0, 1])
        subscriber.request(.max(5))
        #expect(subscriber.values == [0, 1, 3])
        contact.age = 4
        #expect(subscriber.values == [0, 1, 3, 4])
        subscriber.cancel()
        contact.age = 5
        #expect(subscriber.values == [0, 1, 3, 4])
    }

    @Test func assigningAnotherPropertysPublisherChangesNothing() {
        let first = Contact(name: "A", age: 1)
        let second = Contact(name: "B", age: 2)
        first.$age = second.$age
        #expect(first.age == 1)
        #expect(second.age == 2)
        second.age = 3
        #expect(first.age == 1)
        first.$age = second.$age
        first.age = 4
        #expect(first.age == 4)
        #expect(second.age == 3)
    }

    @Test func everyPublisherAssignedToAPropertyKeepsDrivingIt() {
        final class Gauge {
            @Published var level = 0
        }
        let gauge = Gauge()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        first.assign(to: &gauge.$level)
        second.assign(to: &gauge.$level)
        first.send(1)
        #expect(gauge.level == 1)
        second.send(2)
        #expect(gauge.level == 2)
        first.send(3)
        #expect(gauge.level == 3)
    }

    @Test func assignToPublishedDrivesThePropertyWithoutACycle() {
        final class Clock: ObservableObject {
            @Published var tick = 0
            init(ticks: PassthroughSubject<Int, Never>) {
                ticks.assign(to: &$tick)
            }
        }
        let ticks = PassthroughSubject<Int, Never>()
        weak var weakClock: Clock?
        do {
            let clock = Clock(ticks: ticks)
            weakClock = clock
            var changes = 0
            let cancellable = clock.objectWillChange.sink { changes += 1 }
            ticks.send(5)
            ticks.send(6)
            #expect(clock.tick == 6)
            #expect(changes == 2)
            _ = cancellable
        }
        #expect(weakClock == nil)
        ticks.send(7)
    }

    @Test func observedObjectsAreReleased() {
        weak var weakContact: Contact?
        var cancellable: AnyCancellable?
        do {
            let contact = Contact(name: "A", age: 1)
            weakContact = contact
            cancellable = contact.objectWillChange.sink {}
            contact.age = 2
        }
        #expect(weakContact == nil)
        cancellable?.cancel()
    }

    @Test func concurrentWritesWithObservers() {
        let contact = Contact(name: "", age: 0)
        let willChange = TestSubscriber<Void, Never>()
        let ages = TestSubscriber<Int, Never>()
        contact.objectWillChange.subscribe(willChange)
        contact.$age.subscribe(ages)
        let shared = UncheckedBox(contact)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let contact = shared.value
            for index in 1...250 {
                if thread.isMultiple(of: 2) {
                    contact.age = thread * 1000 + index
                } else {
                    contact.name = "\(index)"
                }
                _ = contact.age
            }
        }
        #expect(willChange.values.count == 1000)
        #expect(ages.values.count == 501)
        for thread in [0, 2] {
            #expect(ages.values.filter { $0 / 1000 == thread && $0 != 0 } == (1...250).map { thread * 1000 + $0 })
        }
    }
}
