public import GRDB
public import Streams
import Synchronization

/// The mail database, mirrored into a Streams `Store` that observers subscribe to.
///
/// The database is the single source of truth. GRDB's `ValueObservation` reads a new ``MailState``
/// after every write to the mail tables and hands the states out as an `AsyncSequence`;
/// Streams' `AsyncSequence.publisher` turns that sequence into a publisher, and each state it
/// publishes replaces the store's. Observers never read the database: they subscribe to the store,
/// to the slices they show.
///
/// ```swift
/// let mail = try await MailStore(database: MailDatabase.makeSample())
/// let badge = mail.store.slice(\.[unreadCountIn: SampleMail.inbox.id]).sink { print("Inbox:", $0) }
/// // Prints: Inbox: 2
/// try await mail.perform(.markRead(SampleMail.lunch.id))
/// // Prints: Inbox: 1
/// ```
public final class MailStore: Sendable {
    /// The store observers subscribe to: its state is the database's latest.
    public let store: Store<MailState>
    /// The database: the single source of truth.
    public let database: any DatabaseWriter

    /// The states that have reached the store.
    private let arrivals: StateArrivals
    /// The subscription that carries states from the database to the store.
    private let bridge: Mutex<AnyCancellable>

    /// Starts observing the database, and returns once its first state is in the store.
    ///
    /// - Parameter database: The mail database, with its tables created.
    /// - Throws: The error of the database's first read, if it fails.
    public init(database: any DatabaseWriter) async throws {
        self.database = database
        let store = Store(MailState())
        self.store = store
        let arrivals = StateArrivals()
        self.arrivals = arrivals
        let states = ValueObservation.tracking(MailState.fetch).values(in: database)
        let bridge = states.publisher.sink(
            receiveCompletion: { completion in
                switch completion {
                case .finished: arrivals.recordEnd(MailStoreError.observationEnded)
                case .failure(let error): arrivals.recordEnd(error)
                }
            },
            receiveValue: { state in
                // `update` returns once the new state has reached every observer.
                store.update { $0 = state }
                arrivals.recordArrival()
            })
        self.bridge = Mutex(bridge)
        try await arrivals.wait(for: 1)
    }

    /// The latest state read from the database.
    public var state: MailState {
        store.state
    }

    /// Writes to the database, and returns once the state the write produced has reached every
    /// observer of the store.
    ///
    /// The write runs on GRDB's writer queue, off the caller's thread; the new state reaches the store
    /// from the observation's own task. Every write made through this method produces one new state
    /// (even one that leaves the state as it was), and waits for that one, so writes made one after
    /// another see their effects one after another. Writes made to ``database`` directly produce states
    /// nobody waits for.
    ///
    /// - Parameter write: The change to make.
    /// - Throws: ``MailWriteError`` or a database error if the write fails (nothing is written then),
    ///   or the error that stopped the observation.
    public func perform(_ write: MailWrite) async throws {
        let arrivals = self.arrivals
        let number = try await database.write { db in
            try write.apply(to: db)
            return arrivals.expectOneMore()
        }
        try await arrivals.wait(for: number)
    }
}

/// Why a ``MailStore`` stopped following its database.
public enum MailStoreError: Error, Equatable {
    /// The database observation finished: no more states will arrive.
    case observationEnded
}
