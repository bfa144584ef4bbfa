import Streams
import Synchronization

/// A crowd of observers of a mail store: for each part of the state and each way of subscribing, a
/// number of observers that show that part and subscribe that way.
///
/// ```swift
/// let mail = try await MailStore(database: MailDatabase.makeSample())
/// let observers = MailObservers(
///     of: mail, parts: MailPart.all(in: SampleMail.folders), ways: ObservationWay.slicing, copies: 5)
/// try await mail.perform(.setTheme(.dark))
/// print(observers.takeWakes().byPart)
/// // Prints: [theme: 20]
/// ```
///
/// The observers subscribe when the crowd is created and stay subscribed for as long as it lives.
public final class MailObservers: Sendable {
    /// The observers, by part, then way, then copy.
    let observers: [MailObserver]
    /// What keeps the observers subscribed: their subscriptions, and the wrappers and view models
    /// they subscribe through.
    private let subscriptions: Mutex<[AnyObject]>

    /// Subscribes `copies` observers of each part, for each way.
    ///
    /// - Parameters:
    ///   - mail: The store to observe.
    ///   - parts: The parts of the state the observers show.
    ///   - ways: How the observers subscribe.
    ///   - copies: How many observers show each part through each way.
    public init(of mail: MailStore, parts: [MailPart], ways: [ObservationWay], copies: Int) {
        // One object holds the state for every `Deduplicated` wrapper, as one view model would.
        let model = MailModel(store: mail.store)
        var observers: [MailObserver] = []
        var subscriptions: [AnyObject] = []
        for part in parts {
            for way in ways {
                for copy in 0..<copies {
                    let observer = MailObserver(id: ObserverID(part: part, way: way, copy: copy))
                    subscriptions += observer.subscribe(to: mail.store, through: model)
                    observers.append(observer)
                }
            }
        }
        self.observers = observers
        self.subscriptions = Mutex(subscriptions)
        // The values some ways deliver as they subscribe are first renders, not wakes.
        for observer in observers { _ = observer.takeWakes() }
    }

    /// How many observers the crowd holds.
    public var count: Int {
        observers.count
    }

    /// Returns the wakes since the crowd was created or this method was last called, and starts
    /// counting again.
    public func takeWakes() -> Wakes {
        var wakes = Wakes()
        for observer in observers {
            let count = observer.takeWakes()
            if count > 0 { wakes.byObserver[observer.id] = count }
        }
        return wakes
    }
}
