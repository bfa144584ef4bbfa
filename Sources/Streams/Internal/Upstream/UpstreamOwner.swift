/// An operator's subscription that hears from several upstreams through ``UpstreamSide`` subscribers,
/// told apart by an index.
@usableFromInline
protocol UpstreamOwner: AnyObject, CustomCombineIdentifierConvertible, CustomStringConvertible,
    CustomReflectable
{
    /// How every upstream fails.
    associatedtype UpstreamFailure: Error

    /// What tells one upstream from the others.
    associatedtype UpstreamIndex

    /// How the subscriber attached to each upstream prints itself, as Combine's does.
    static var upstreamPresentation: UpstreamSidePresentation { get }

    /// The upstream at `index` has sent its subscription.
    func receive(subscription: any Subscription, upstream index: UpstreamIndex)

    /// The upstream at `index` has completed.
    func receive(completion: Subscribers.Completion<UpstreamFailure>, upstream index: UpstreamIndex)
}

/// An ``UpstreamOwner`` whose upstreams all publish the same type: merge, flatMap (an index per new
/// publisher) and switchToLatest (one per inner publisher).
@usableFromInline
protocol IndexedUpstreamOwner: UpstreamOwner {
    /// What every upstream publishes.
    associatedtype UpstreamInput

    /// The upstream at `index` has sent a value; returns the further demand for it.
    func receive(_ input: UpstreamInput, upstream index: UpstreamIndex) -> Subscribers.Demand
}

/// An ``UpstreamOwner`` whose upstreams each publish a type of their own, kept in `Buffers` until they
/// make a tuple: zip and combineLatest.
@usableFromInline
protocol BufferingUpstreamOwner: UpstreamOwner where UpstreamIndex == Int {
    /// A buffer per upstream, each typed by its upstream's output.
    associatedtype Buffers

    /// The upstream at `index` has sent a value, which `store` puts in its buffer (with the owner's
    /// lock held); returns the further demand for it.
    func receive<Input>(_ input: Input, upstream index: Int, store: (inout Buffers, Input) -> Void)
        -> Subscribers.Demand
}

/// The lane of one upstream of an ``IndexedUpstreamOwner``: its index.
@usableFromInline
struct IndexedUpstreamLane<Owner: IndexedUpstreamOwner>: UpstreamLane {
    @usableFromInline
    let index: Owner.UpstreamIndex

    @inlinable
    init(index: Owner.UpstreamIndex) {
        self.index = index
    }

    @inlinable
    static var presentation: UpstreamSidePresentation { Owner.upstreamPresentation }

    @inlinable
    func receive(subscription: any Subscription, owner: Owner) {
        owner.receive(subscription: subscription, upstream: index)
    }

    @inlinable
    func receive(_ input: Owner.UpstreamInput, owner: Owner) -> Subscribers.Demand {
        owner.receive(input, upstream: index)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Owner.UpstreamFailure>, owner: Owner) {
        owner.receive(completion: completion, upstream: index)
    }
}

/// The lane of one upstream of a ``BufferingUpstreamOwner``: its index, and where its values go.
@usableFromInline
struct BufferingUpstreamLane<Owner: BufferingUpstreamOwner, Input>: UpstreamLane {
    @usableFromInline
    let index: Int

    /// Puts a value in this upstream's buffer.
    @usableFromInline
    let store: (inout Owner.Buffers, Input) -> Void

    @inlinable
    init(index: Int, store: @escaping (inout Owner.Buffers, Input) -> Void) {
        self.index = index
        self.store = store
    }

    @inlinable
    static var presentation: UpstreamSidePresentation { Owner.upstreamPresentation }

    @inlinable
    func receive(subscription: any Subscription, owner: Owner) {
        owner.receive(subscription: subscription, upstream: index)
    }

    @inlinable
    func receive(_ input: Input, owner: Owner) -> Subscribers.Demand {
        owner.receive(input, upstream: index, store: store)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Owner.UpstreamFailure>, owner: Owner) {
        owner.receive(completion: completion, upstream: index)
    }
}

extension IndexedUpstreamOwner {
    /// The subscriber to attach to the upstream at `index`.
    @inlinable
    func upstreamSide(_ index: UpstreamIndex) -> UpstreamSide<IndexedUpstreamLane<Self>> {
        UpstreamSide(owner: self, lane: IndexedUpstreamLane(index: index))
    }
}

extension BufferingUpstreamOwner {
    /// The subscriber to attach to the upstream at `index`, whose values `store` puts in its buffer.
    @inlinable
    func upstreamSide<Input>(_ index: Int, store: @escaping (inout Buffers, Input) -> Void)
        -> UpstreamSide<BufferingUpstreamLane<Self, Input>>
    {
        UpstreamSide(owner: self, lane: BufferingUpstreamLane(index: index, store: store))
    }
}
