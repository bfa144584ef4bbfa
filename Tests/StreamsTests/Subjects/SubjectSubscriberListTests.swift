import Streams
import Testing

/// A subject's subscriber list compacts its slots once more than half are empty: removal moves the
/// survivors, so the list must keep their order, keep them alive, and let go of exactly the removed.
@Suite struct SubjectSubscriberListTests {
    /// Something a sink's closure holds, to see when the sink lets go of it.
    final class Marker {}

    @Test func cancellingMostSinksInAScatteredOrderKeepsTheOthersInOrderAndAlive() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellables: [AnyCancellable?] = []
        var markers: [() -> Marker?] = []
        for index in 0..<40 {
            let marker = Marker()
            weak let weakMarker = marker
            markers.append { weakMarker }
            cancellables.append(subject.sink { _ in withExtendedLifetime(marker) { received.append(index) } })
        }
        // Every index not a multiple of 5, highest first among odd, then the even ones: several
        // compactions, each with survivors on both sides of the removed slots.
        let cancelled = (0..<40).filter { $0 % 5 != 0 }.sorted { ($0 % 2, -$0) < ($1 % 2, -$1) }
        for (step, index) in cancelled.enumerated() {
            cancellables[index] = nil
            #expect(markers[index]() == nil, "sink \(index) let go of its closure when cancelled")
            if step % 7 == 0 {
                received = []
                subject.send(step)
                let live = (0..<40).filter { cancellables[$0] != nil }
                #expect(received == live, "after \(step + 1) cancels")
            }
        }
        received = []
        subject.send(-1)
        #expect(received == [0, 5, 10, 15, 20, 25, 30, 35])
        #expect((0..<40).filter { markers[$0]() != nil } == [0, 5, 10, 15, 20, 25, 30, 35])
        cancellables = []
        #expect(markers.allSatisfy { $0() == nil })
        received = []
        subject.send(-2)
        #expect(received == [])
    }

    @Test func aSinkAddedAfterCompactionIsDeliveredToLastAndCanBeCancelled() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        var cancellables = (0..<20).map { index in subject.sink { received.append("s\(index) \($0)") } }
        cancellables.removeSubrange(0..<15)
        let late = subject.sink { received.append("late \($0)") }
        subject.send(1)
        #expect(received == ["s15 1", "s16 1", "s17 1", "s18 1", "s19 1", "late 1"])
        late.cancel()
        cancellables.removeFirst()
        received = []
        subject.send(2)
        #expect(received == ["s16 2", "s17 2", "s18 2", "s19 2"])
    }
}
