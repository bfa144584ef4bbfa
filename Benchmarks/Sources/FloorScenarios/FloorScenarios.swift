import BenchmarkCore
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The floor: the same work written by hand with no framework — stored closures in a class, a
/// last-value check, a token registry. Single-threaded where the scenario is (no locks, no demand),
/// so it is what the work itself costs; where several threads send (scenario 7), one pthread mutex
/// held while calling the closures.
public enum FloorScenarios {
    /// 1. A class that stores the map, the filter and the sink as closures, with a last-value check.
    public static func pipeline(values: Int, probe: Probe) -> Int {
        let tally = Tally()
        let pipeline = Pipeline(
            transform: opaque { PipelineWork.transform($0) },
            isIncluded: opaque { PipelineWork.isIncluded($0) },
            receive: opaque { tally.chain($0) })
        probe.start()
        for index in 0..<values { pipeline.send(PipelineWork.input(index)) }
        probe.stop()
        return tally.checksum
    }

    /// 2. One observer per subscriber, each with its field's getter, its last value and its handler.
    public static func fanOut(subscribers: Int, updates: Int, probe: Probe) -> Int {
        var state = State10()
        let tally = Tally()
        let observers = (0..<subscribers).map { index in
            let getter = State10.getters[index % State10.fieldCount]
            return FieldObserver(getter: getter, last: getter(state), handler: opaque { tally.add($0) })
        }
        probe.start()
        for update in 0..<updates {
            let (field, value) = State10.update(update)
            state.set(field, to: value)
            for observer in observers { observer.receive(state) }
        }
        probe.stop()
        return tally.checksum
    }

    /// 2'. A per-field observer list: compare each field once, notify that field's observers.
    public static func slices(observers: Int, updates: Int, probe: Probe) -> Int {
        var state = State10()
        let tally = Tally()
        let lists = FieldLists(initial: state)
        for index in 0..<observers {
            lists.observe(index % State10.fieldCount, opaque { tally.add($0) })
        }
        probe.start()
        for update in 0..<updates {
            let (field, value) = State10.update(update)
            state.set(field, to: value)
            lists.receive(state)
        }
        probe.stop()
        return tally.checksum
    }

    /// 3. Register a mapping handler under a token, then remove it.
    public static func subscribeCancel(pairs: Int, probe: Probe) -> Int {
        let registry = Registry()
        let tally = Tally()
        let transform: (Int) -> Int = opaque { $0 &+ 1 }
        probe.start()
        for index in 0..<pairs {
            let token = registry.add(opaque { tally.add(transform($0)) })
            if index & 1023 == 0 { registry.send(index) }
            registry.remove(token)
        }
        probe.stop()
        registry.send(-1)
        return tally.checksum
    }

    /// 4. One DispatchQueue.async per value.
    public static func receiveOn(values: Int, probe: Probe) -> Int {
        let queue = DispatchQueue(label: "benchmarks.floor.receive-on")
        let tally = Tally()
        let done = DispatchSemaphore(value: 0)
        probe.start()
        for value in 0..<values { queue.async { tally.chain(value) } }
        queue.async { done.signal() }
        done.wait()
        probe.stop()
        return tally.checksum
    }

    /// 5. Five properties whose willSet notifies a hand-written observer list.
    public static func published(observers: Int, writes: Int, probe: Probe) -> Int {
        let model = FiveProperties()
        let tally = Tally()
        for _ in 0..<observers { model.observe(opaque { tally.add(1) }) }
        probe.start()
        for write in 0..<writes {
            switch write % 5 {
            case 0: model.a = write
            case 1: model.b = write
            case 2: model.c = write
            case 3: model.d = write
            default: model.e = write
            }
        }
        probe.stop()
        return tally.checksum &+ model.a &+ model.b &* 3 &+ model.c &* 5 &+ model.d &* 7 &+ model.e &* 11
    }

    /// 6a. One token per registry, kept in a Set; releasing a token unregisters it.
    public static func storedSubscriptions(count: Int, probe: Probe) -> Int {
        let registries = (0..<count).map { _ in Registry() }
        let tally = Tally()
        var tokens = Set<Token>()
        probe.start()
        for registry in registries { tokens.insert(registry.subscribe(opaque { tally.add($0) })) }
        probe.stop()
        for index in stride(from: 0, to: count, by: 100) { registries[index].send(index) }
        probe.start()
        tokens = []
        probe.stop()
        for index in stride(from: 0, to: count, by: 100) { registries[index].send(-1) }
        return tally.checksum
    }

    /// 6b. Many tokens on one registry, kept in a Set, then released.
    public static func oneSubject(subscribers: Int, probe: Probe) -> Int {
        let registry = Registry()
        let tally = Tally()
        var tokens = Set<Token>()
        probe.start()
        for _ in 0..<subscribers { tokens.insert(registry.subscribe(opaque { tally.add($0) })) }
        probe.stop()
        registry.send(3)
        probe.start()
        tokens = []
        probe.stop()
        registry.send(-1)
        return tally.checksum
    }

    /// 7. A mutex held while calling every stored handler, sent into from several threads at once.
    public static func contention(threads: Int, valuesPerThread: Int, subscribers: Int, probe: Probe) -> Int {
        let rig = ContentionRig(threads: threads, valuesPerThread: valuesPerThread, subscribers: subscribers)
        let broadcast = LockedBroadcast(handlers: rig.receivers.map { receiver in opaque { receiver.receive($0) } })
        return rig.run(probe: probe) { broadcast.send($0) }
    }

    /// 8a. Eight sources, each a stored closure that is the sink's: a merge forwards each value
    /// as it comes, so by hand it is the sink called from eight places.
    public static func merge(values: Int, probe: Probe) -> Int {
        let tally = Tally()
        let receive = opaque { (value: Int) in tally.add(value) }
        let sources = (0..<CombiningWork.mergeUpstreams).map { _ in Source(receive: receive) }
        probe.start()
        for index in 0..<values { sources[index % CombiningWork.mergeUpstreams].send(index) }
        probe.stop()
        return tally.checksum
    }

    /// 8b. Three sources feeding an array of latest values; once each has one, every value calls the
    /// sink with the three.
    public static func combineLatest(values: Int, probe: Probe) -> Int {
        let tally = Tally()
        let latest = LatestOfThree(handler: opaque { tally.add(CombiningWork.combine($0, $1, $2)) })
        let sources = (0..<CombiningWork.combineLatestUpstreams).map { index in
            Source(receive: opaque { latest.receive($0, at: index) })
        }
        probe.start()
        for index in 0..<values { sources[index % CombiningWork.combineLatestUpstreams].send(index) }
        probe.stop()
        return tally.checksum
    }

    /// 8c. Two sources feeding a queue each; a value that finds the other queue non-empty is paired
    /// with its oldest value.
    public static func zip(values: Int, probe: Probe) -> Int {
        let tally = Tally()
        let pairs = Pairs(receive: opaque { tally.chain(CombiningWork.combine($0, $1)) })
        let first = Source(receive: opaque { pairs.receiveFirst($0) })
        let second = Source(receive: opaque { pairs.receiveSecond($0) })
        probe.start()
        for index in 0..<values {
            if index & 1 == 0 { first.send(index) } else { second.send(index) }
        }
        probe.stop()
        return tally.checksum
    }

    /// 8d. One source whose only receiver calls a list of `subscribers` stored closures in turn.
    public static func share(subscribers: Int, values: Int, probe: Probe) -> Int {
        let tally = Tally()
        let broadcast = Broadcast()
        for _ in 0..<subscribers { broadcast.handlers.append(opaque { tally.add($0) }) }
        let source = Source(receive: opaque { broadcast.send($0) })
        probe.start()
        for index in 0..<values { source.send(index) }
        probe.stop()
        return tally.checksum
    }
}

/// Scenario 1: map, filter, last-value check and sink as stored closures.
final class Pipeline {
    let transform: (Int) -> Int
    let isIncluded: (Int) -> Bool
    let receive: (Int) -> Void
    var last: Int?

    init(transform: @escaping (Int) -> Int, isIncluded: @escaping (Int) -> Bool, receive: @escaping (Int) -> Void) {
        self.transform = transform
        self.isIncluded = isIncluded
        self.receive = receive
    }

    func send(_ input: Int) {
        let value = transform(input)
        guard isIncluded(value), value != last else { return }
        last = value
        receive(value)
    }
}

/// Scenario 2: one observer of one field.
final class FieldObserver {
    let getter: (State10) -> Int
    let handler: (Int) -> Void
    var last: Int

    init(getter: @escaping (State10) -> Int, last: Int, handler: @escaping (Int) -> Void) {
        self.getter = getter
        self.last = last
        self.handler = handler
    }

    func receive(_ state: State10) {
        let value = getter(state)
        guard value != last else { return }
        last = value
        handler(value)
    }
}

/// Scenario 2': the observers of each field, and each field's last value.
final class FieldLists {
    var lists = [[(Int) -> Void]](repeating: [], count: State10.fieldCount)
    var last: State10

    init(initial: State10) {
        last = initial
    }

    func observe(_ field: Int, _ handler: @escaping (Int) -> Void) {
        lists[field].append(handler)
    }

    func receive(_ state: State10) {
        for field in 0..<State10.fieldCount {
            let value = state.field(field)
            guard value != last.field(field) else { continue }
            last.set(field, to: value)
            for handler in lists[field] { handler(value) }
        }
    }
}

/// Scenarios 3 and 6: handlers registered under integer tokens.
final class Registry {
    private var handlers: [Int: (Int) -> Void] = [:]
    private var nextToken = 0

    func add(_ handler: @escaping (Int) -> Void) -> Int {
        let token = nextToken
        nextToken += 1
        handlers[token] = handler
        return token
    }

    func remove(_ token: Int) {
        handlers[token] = nil
    }

    func send(_ value: Int) {
        for handler in handlers.values { handler(value) }
    }

    /// Registers a handler that stays registered while the returned token lives.
    func subscribe(_ handler: @escaping (Int) -> Void) -> Token {
        Token(registry: self, id: add(handler))
    }
}

/// Scenario 6: unregisters its handler when released, like an AnyCancellable.
final class Token: Hashable {
    let registry: Registry
    let id: Int

    init(registry: Registry, id: Int) {
        self.registry = registry
        self.id = id
    }

    deinit {
        registry.remove(id)
    }

    static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// Scenario 7: handlers called in turn with a mutex held (a ``PthreadMutex``), so that sends from
/// several threads take turns and each `send` returns after its value reached every handler.
final class LockedBroadcast {
    private let mutex = PthreadMutex()
    private let handlers: [(Int) -> Void]

    init(handlers: [(Int) -> Void]) {
        self.handlers = handlers
    }

    func send(_ value: Int) {
        mutex.withLock {
            for handler in handlers { handler(value) }
        }
    }
}

/// Scenario 5: five properties and an observer list notified before each write.
final class FiveProperties {
    private var observers: [() -> Void] = []

    var a = 0 { willSet { notify() } }
    var b = 0 { willSet { notify() } }
    var c = 0 { willSet { notify() } }
    var d = 0 { willSet { notify() } }
    var e = 0 { willSet { notify() } }

    func observe(_ observer: @escaping () -> Void) {
        observers.append(observer)
    }

    private func notify() {
        for observer in observers { observer() }
    }
}

/// Scenarios 8: what stands for a subject — one stored receiver.
final class Source {
    let receive: (Int) -> Void

    init(receive: @escaping (Int) -> Void) {
        self.receive = receive
    }

    func send(_ value: Int) {
        receive(value)
    }
}

/// Scenario 8b: the latest value of each of three upstreams; the handler gets the three once each
/// upstream has sent one.
final class LatestOfThree {
    private var latest: [Int?] = [nil, nil, nil]
    private var missing = 3
    private let handler: (Int, Int, Int) -> Void

    init(handler: @escaping (Int, Int, Int) -> Void) {
        self.handler = handler
    }

    func receive(_ value: Int, at index: Int) {
        if latest[index] == nil { missing -= 1 }
        latest[index] = value
        if missing == 0 { handler(latest[0]!, latest[1]!, latest[2]!) }
    }
}

/// Scenario 8c: the values of each upstream not yet paired, oldest first.
final class Pairs {
    private var first = IntQueue()
    private var second = IntQueue()
    private let receive: (Int, Int) -> Void

    init(receive: @escaping (Int, Int) -> Void) {
        self.receive = receive
    }

    func receiveFirst(_ value: Int) {
        if let other = second.pop() { receive(value, other) } else { first.push(value) }
    }

    func receiveSecond(_ value: Int) {
        if let other = first.pop() { receive(other, value) } else { second.push(value) }
    }
}

/// A first-in, first-out queue of integers in an array that is emptied (keeping its capacity) when
/// its last value is taken.
struct IntQueue {
    private var storage: [Int] = []
    private var head = 0

    mutating func push(_ value: Int) {
        storage.append(value)
    }

    mutating func pop() -> Int? {
        guard head < storage.count else { return nil }
        let value = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return value
    }
}

/// Scenario 8d: the subscribers of the shared upstream.
final class Broadcast {
    var handlers: [(Int) -> Void] = []

    func send(_ value: Int) {
        for handler in handlers { handler(value) }
    }
}
