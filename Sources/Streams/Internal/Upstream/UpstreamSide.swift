/// The subscriber an operator attaches to each of its upstream publishers when it has more than one
/// (merge, zip, combineLatest) or subscribes to publishers it is given as values (flatMap,
/// switchToLatest), or relays one publisher after another (catch, append, prepend).
///
/// It holds no state of its own: it forwards the three calls to its owner, the operator's
/// subscription, together with its ``UpstreamLane``, which says which upstream spoke. So the operator
/// keeps every piece of state in one place, under one lock, and the side is a plain value that costs
/// no allocation.
@usableFromInline
struct UpstreamSide<Lane: UpstreamLane>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias Input = Lane.Input

    @usableFromInline
    typealias Failure = Lane.Failure

    /// The operator's subscription, which the side keeps alive while its upstream holds the side.
    @usableFromInline
    let owner: Lane.Owner

    /// Which upstream this side listens to.
    @usableFromInline
    let lane: Lane

    @usableFromInline
    let combineIdentifier: CombineIdentifier

    @inlinable
    init(owner: Lane.Owner, lane: Lane) {
        self.owner = owner
        self.lane = lane
        switch Lane.presentation {
        case .child: combineIdentifier = CombineIdentifier()
        case .owner: combineIdentifier = owner.combineIdentifier
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lane.receive(subscription: subscription, owner: owner)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lane.receive(input, owner: owner)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lane.receive(completion: completion, owner: owner)
    }

    @usableFromInline
    var description: String {
        switch Lane.presentation {
        case .child(let name): name
        case .owner: owner.description
        }
    }

    @usableFromInline
    var customMirror: Mirror {
        switch Lane.presentation {
        case .child: Mirror(self, children: ["parentSubscription": owner.combineIdentifier])
        case .owner: owner.customMirror
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}

/// How an ``UpstreamSide`` prints itself, as Combine's subscriber in the same place does.
@usableFromInline
enum UpstreamSidePresentation {
    /// A subscriber of its own, with this description, its own identity and a mirror naming its
    /// owner as `parentSubscription` (merge, zip, combineLatest, flatMap, switchToLatest).
    case child(named: String)
    /// The owner itself: its identity, description and mirror (catch, append, prepend).
    case owner
}

/// Which of its owner's upstreams an ``UpstreamSide`` listens to, and how it tells the owner what
/// that upstream sent.
///
/// Every call is static, so a side's calls specialize and inline into the operator's code.
@usableFromInline
protocol UpstreamLane {
    /// The operator's subscription.
    associatedtype Owner: UpstreamOwner

    /// What the upstream publishes.
    associatedtype Input

    /// How the upstream fails.
    associatedtype Failure: Error

    /// How sides on this lane print themselves.
    static var presentation: UpstreamSidePresentation { get }

    /// The upstream's subscription has arrived.
    func receive(subscription: any Subscription, owner: Owner)

    /// The upstream has sent a value; returns the further demand for it.
    func receive(_ input: Input, owner: Owner) -> Subscribers.Demand

    /// The upstream has completed.
    func receive(completion: Subscribers.Completion<Failure>, owner: Owner)
}
