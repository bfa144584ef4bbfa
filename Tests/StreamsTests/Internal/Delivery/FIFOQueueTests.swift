@testable import Streams
import Testing

/// The queue every operator keeps its waiting values and events in.
@Suite struct FIFOQueueTests {
    @Test func popsInArrivalOrderWhileAppendsAndPopsInterleave() {
        var queue = FIFOQueue<Int>()
        var popped: [Int] = []
        queue.append(1)
        queue.append(2)
        popped.append(queue.popFirst()!)
        queue.append(3)
        queue.append(4)
        popped.append(queue.popFirst()!)
        queue.append(5)
        while let value = queue.popFirst() { popped.append(value) }
        #expect(popped == [1, 2, 3, 4, 5])
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    @Test func countFirstAndIterationFollowTheContents() {
        var queue = FIFOQueue<String>()
        #expect(queue.count == 0)
        #expect(queue.first == nil)
        #expect(Array(queue) == [])
        for value in ["a", "b", "c"] { queue.append(value) }
        _ = queue.popFirst()
        queue.append("d")
        #expect(queue.count == 3)
        #expect(queue.first == "b")
        #expect(Array(queue) == ["b", "c", "d"])
        // Reading does not consume.
        #expect(queue.popFirst() == "b")
    }

    @Test func removeFirstUpToTakesABatchInOrder() {
        var queue = FIFOQueue<Int>()
        for value in 1...5 { queue.append(value) }
        #expect(queue.removeFirst(upTo: 2) == [1, 2])
        #expect(queue.removeFirst(upTo: 10) == [3, 4, 5])
        #expect(queue.removeFirst(upTo: 1) == [])
        #expect(queue.isEmpty)
    }

    @Test func removeAllHandsBackWhatWasQueued() {
        var queue = FIFOQueue<Int>()
        for value in 1...3 { queue.append(value) }
        var taken = queue.removeAll()
        #expect(queue.isEmpty)
        #expect(taken.count == 3)
        #expect(taken.popFirst() == 1)
        queue.append(9)
        #expect(Array(queue) == [9])
    }

    @Test func anElementIsReleasedAsSoonAsItLeaves() {
        final class Token {}
        var queue = FIFOQueue<Token>()
        weak var first: Token?
        weak var second: Token?
        do {
            let a = Token()
            let b = Token()
            first = a
            second = b
            queue.append(a)
            queue.append(b)
            queue.append(Token())
        }
        _ = queue.popFirst()
        #expect(first == nil)
        #expect(second != nil)
        _ = queue.popFirst()
        #expect(second == nil)
    }

    @Test func shrinkIfEmptyLetsGoOfALargeBurstsStorageOnly() {
        var queue = FIFOQueue<Int>()
        for value in 0..<100 { queue.append(value) }
        queue.shrinkIfEmpty(retainedCapacity: 10)
        #expect(queue.count == 100)
        while queue.popFirst() != nil {}
        queue.shrinkIfEmpty(retainedCapacity: 10)
        #expect(queue.inbox.capacity + queue.outbox.capacity == 0)
        for value in 0..<5 { queue.append(value) }
        while queue.popFirst() != nil {}
        let kept = queue.inbox.capacity + queue.outbox.capacity
        queue.shrinkIfEmpty(retainedCapacity: 1_000)
        #expect(queue.inbox.capacity + queue.outbox.capacity == kept)
    }

    @Test func randomScriptsMatchAnArray() {
        var generator = SeededRandom(seed: 0x5EED_F1F0)
        for _ in 0..<200 {
            var queue = FIFOQueue<Int>()
            var model: [Int] = []
            var next = 0
            for _ in 0..<Int(generator.next() % 64) {
                switch generator.next() % 4 {
                case 0, 1:
                    queue.append(next)
                    model.append(next)
                    next += 1
                case 2:
                    #expect(queue.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
                default:
                    let count = Int(generator.next() % 4)
                    let expected = Array(model.prefix(count))
                    model.removeFirst(expected.count)
                    #expect(queue.removeFirst(upTo: count) == expected)
                }
                #expect(queue.count == model.count)
                #expect(queue.first == model.first)
            }
            #expect(Array(queue) == model)
        }
    }
}
