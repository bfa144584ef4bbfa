/// The subscription of an ``AsyncSequencePublisher``: it iterates its own iterator in a task started
/// at the first request, asks for an element only while there is demand, and delivers each from the
/// task. ``AsyncSequenceIterationState`` decides; this class carries the decisions out.
@usableFromInline
final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    // @unchecked Sendable: state, downstream and task are guarded by `lock`; the task alone calls out.
    @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let base: Base
    @usableFromInline
    let executor: (any TaskExecutor)?
    @usableFromInline
    let priority: TaskPriority?
    /// Guarded by `lock`.
    @usableFromInline
    var state = AsyncSequenceIterationState()
    /// Guarded by `lock`: the iterating task, once started; `nil` once the iteration has ended.
    @usableFromInline
    var task: Task<Void, Never>?
    /// Guarded by `lock`; `nil` once the iteration has ended.
    @usableFromInline
    var downstream: Downstream?

    @inlinable
    init(publisher: AsyncSequencePublisher<Base>, downstream: Downstream) {
        base = publisher.base
        executor = publisher.executor
        priority = publisher.priority
        self.downstream = downstream
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        switch lock.withLock({ state.request(demand) }) {
        case .none: return
        case .start: start()
        case .resume(let continuation): continuation.resume(returning: true)
        }
    }

    @inlinable
    func cancel() {
        let (ended, task, downstream) = lock.withLock {
            (state.end(), self.task.take(), self.downstream.take())
        }
        ended.waiting?.resume(returning: false)
        task?.cancel()
        withExtendedLifetime(downstream) {}
    }

    // MARK: Iterating

    /// Starts the task; it holds the subscription until the iteration ends.
    @inlinable
    func start() {
        // The iteration is formed here, where the subscription's types are known, so it runs
        // specialized; the task gets it through a box that holds no generic type.
        let iteration = AsyncSequenceIteration { await self.iterate() }
        let operation: @Sendable () async -> Void = { await iteration.run() }
        let task =
            if let executor {
                Task(executorPreference: executor, priority: priority, operation: operation)
            } else {
                Task(priority: priority, operation: operation)
            }
        let ended = lock.withLock { () -> Bool in
            guard !state.hasEnded else { return true }
            self.task = task
            return false
        }
        if ended { task.cancel() }
    }

    @inlinable
    func iterate() async {
        var iterator = base.makeAsyncIterator()
        while await demandArrived() {
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                finish(.failure(error))
                return
            }
            guard let element else {
                finish(.finished)
                return
            }
            guard let target = lock.withLock({ state.takeDemandForElement() ? downstream : nil }) else { return }
            let more = target.receive(element)
            if more > 0 { lock.withLock { state.add(more) } }
        }
    }

    /// Waits until the subscriber has demand: `true` to ask for the next element, `false` once the
    /// iteration has ended.
    @inlinable
    func demandArrived() async -> Bool {
        if let ready = lock.withLock({ state.readiness }) { return ready }
        return await withCheckedContinuation { continuation in
            if let ready = lock.withLock({ state.wait(on: continuation) }) {
                continuation.resume(returning: ready)
            }
        }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Base.Failure>) {
        let (ended, downstream) = lock.withLock {
            () -> ((wasGoing: Bool, waiting: CheckedContinuation<Bool, Never>?), Downstream?) in
            task = nil
            return (state.end(), self.downstream.take())
        }
        guard ended.wasGoing else { return }
        downstream?.receive(completion: completion)
    }

    // MARK: Description

    @usableFromInline
    var description: String { "AsyncSequencePublisher" }

    @inlinable
    var customMirror: Mirror {
        let demand = lock.withLock { state.demand }
        return Mirror(self, children: ["demand": demand])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

/// The iteration a subscription's task runs, handed over once: a closure formed where the
/// subscription's types are known (so that it runs specialized), boxed so that the task's closure
/// captures no generic type.
@usableFromInline
// @unchecked Sendable: `body` is guarded by `lock` and taken out once, by the task that runs it.
final class AsyncSequenceIteration: @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    /// Guarded by `lock`; `nil` once taken.
    @usableFromInline
    var body: (() async -> Void)?

    @inlinable
    init(_ body: @escaping () async -> Void) {
        self.body = body
    }

    /// Runs the iteration; a second call does nothing.
    @inlinable
    func run() async {
        guard let body = lock.withLock({ self.body.take() }) else { return }
        await body()
    }
}
