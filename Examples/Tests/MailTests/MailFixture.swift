import Mail

/// A sample database in memory, its store, and observers of every part of the state: by slices,
/// two observers per part for each of the four ways, and by the whole state, eight per part.
struct MailFixture {
    /// Every part of the sample state.
    static let parts = MailPart.all(in: SampleMail.folders)
    /// How many observers show each part through each way of observing slices.
    static let copies = 2

    /// The store, on a sample database in memory.
    let mail: MailStore
    /// The observers of slices.
    let slicing: MailObservers
    /// The observers of the whole state: as many as those of slices.
    let wholeState: MailObservers

    /// Creates the database, the store and the observers.
    init() async throws {
        mail = try await MailStore(database: MailDatabase.makeSample())
        slicing = MailObservers(of: mail, parts: Self.parts, ways: ObservationWay.slicing, copies: Self.copies)
        wholeState = MailObservers(
            of: mail, parts: Self.parts, ways: [.wholeState], copies: Self.copies * ObservationWay.slicing.count)
    }

    /// Performs a write and returns who woke for it: the observers of slices, then those of the whole
    /// state.
    func wakes(for write: MailWrite) async throws -> (slicing: Wakes, wholeState: Wakes) {
        _ = slicing.takeWakes()
        _ = wholeState.takeWakes()
        try await mail.perform(write)
        return (slicing.takeWakes(), wholeState.takeWakes())
    }
}

extension Wakes {
    /// Each observer of these parts woken once: two per part for each way of observing slices.
    static func once(_ parts: [MailPart]) -> Wakes {
        var wakes = Wakes()
        for part in parts {
            for way in ObservationWay.slicing {
                for copy in 0..<MailFixture.copies {
                    wakes.byObserver[ObserverID(part: part, way: way, copy: copy)] = 1
                }
            }
        }
        return wakes
    }

    /// Each observer of the whole state woken once.
    static let everyoneOnce: Wakes = {
        var wakes = Wakes()
        for part in MailFixture.parts {
            for copy in 0..<(MailFixture.copies * ObservationWay.slicing.count) {
                wakes.byObserver[ObserverID(part: part, way: .wholeState, copy: copy)] = 1
            }
        }
        return wakes
    }()
}
