import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Drawing recordings as marble diagrams, and reading them back.
@Suite struct MarbleRenderingTests {
    @Test func drawsValuesCompletionAndQuietFrames() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(
            scheduler.createColdPublisher([
                .value("a", at: .seconds(2)),
                .value("b", at: .seconds(5)),
                .finished(at: .seconds(7)),
            ]))
        scheduler.advance(by: .seconds(10))
        #expect(recorder.marbles() == "--a--b-|")
    }

    @Test func groupsEventsOfOneFrame() {
        let scheduler = DispatchQueue.test
        #expect(scheduler.marbles(of: ["x", "y"].publisher) == "(xy|)")
        #expect(scheduler.marbles(of: Just("x")) == "(x|)")
        #expect(scheduler.marbles(of: Empty<Int, Never>()) == "|")
        #expect(scheduler.marbles(of: Fail<Int, KitError>(error: KitError())) == "#")
    }

    @Test func aGroupTakesItsColumnsSoTheNextEventIsDrawnAfterIt() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(
            scheduler.createColdPublisher([
                .value(1, at: .seconds(1)),
                .value(2, at: .seconds(1)),
                .value(3, at: .seconds(5)),
            ]))
        scheduler.advance(by: .seconds(10))
        #expect(recorder.marbles() == "-(12)3")
    }

    @Test func valuesMapBackThroughTheDictionary() {
        let scheduler = DispatchQueue.test
        let values: [Character: Double] = ["h": 0.5, "w": 2.25]
        let recorder = scheduler.record(
            scheduler.createColdPublisher(marbles: "h-w|", values: values).map { $0 * 1 })
        scheduler.advance(by: .seconds(5))
        #expect(recorder.marbles(values: values) == "h-w|")
    }

    @Test func theSmallestKeyDrawsAValueWithSeveral() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher(marbles: "a-b", values: ["a": 1, "b": 1])
        #expect(scheduler.marbles(of: publisher, values: ["b": 1, "a": 1]) == "a-a")
    }

    @Test func aValueOutsideTheDictionaryIsDrawnAsItsOneCharacterDescription() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher(marbles: "a-b", values: ["a": 10, "b": 7])
        #expect(scheduler.marbles(of: publisher, values: ["a": 10]) == "a-7")
    }

    @Test func aValueThatCannotBeDrawnIsAPlaceholderWithALegend() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher(marbles: "a-b-c", values: ["a": 1, "b": 42, "c": 100])
        #expect(scheduler.marbles(of: publisher) == "1-?-?  (? at column 3: 42; ? at column 5: 100)")
        // A description that is another key's character would mislead, so it is a placeholder too.
        let other = DispatchQueue.test
        let clash = other.createColdPublisher(marbles: "ab", values: ["a": 1, "b": 2])
        #expect(other.marbles(of: clash, values: ["2": 1]) == "2?  (? at column 2: 2)")
    }

    @Test func framesCountFromTheSchedulersStart() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher(marbles: "-a|")
        scheduler.advance(by: .seconds(3))
        #expect(scheduler.marbles(of: publisher) == "----a|")
    }

    @Test func framesLimitHowFarTheClockMoves() {
        let scheduler = DispatchQueue.test
        let ticks = PassthroughSubject<String, Never>()
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(2)) {
            ticks.send("t")
        }
        #expect(scheduler.marbles(of: ticks, frames: 7) == "--t-t-t")
        #expect(scheduler.elapsed == .seconds(7))
        timer.cancel()
    }

    @Test func aShorterFrameDrawsFinerTime() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher([.value("a", at: .milliseconds(300)), .finished(at: .seconds(1))])
        #expect(scheduler.marbles(of: publisher, frame: .milliseconds(100)) == "---a------|")
    }

    @Test func anEventBetweenFramesCannotBeDrawn() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher([.value("a", at: .milliseconds(1500))])
        #expect(
            scheduler.marbles(of: publisher)
                == "cannot draw: value a at 1.5 s falls between frames 1 and 2 of 1 s; draw with a frame that divides every time"
        )
    }

    @Test func eventsInsideAnEarlierGroupCannotBeDrawn() {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher([
            .value("a", at: .zero), .value("b", at: .zero), .value("c", at: .seconds(2)),
        ])
        #expect(
            scheduler.marbles(of: publisher)
                == "cannot draw: the events at frame 2 fall inside the group drawn before them; a group of n events takes n + 2 frames, so draw with a shorter frame"
        )
        let fresh = DispatchQueue.test
        let finer = fresh.createColdPublisher([
            .value("a", at: .zero), .value("b", at: .zero), .value("c", at: .seconds(2)),
        ])
        #expect(fresh.marbles(of: finer, frame: .milliseconds(500)) == "(ab)c")
    }

    @Test(arguments: ["a", "--a--b-|", "(ab)-c--(d#)", "-(abc)d", "---", "", "(a|)", "a-(bc)-(de)f"])
    func drawingAParsedDiagramGivesItBack(diagram: String) {
        let scheduler = DispatchQueue.test
        let publisher = scheduler.createColdPublisher(marbles: diagram, error: KitError())
        let drawn = scheduler.marbles(of: publisher)
        // Trailing dashes are only time: the drawing stops at the last event.
        var trimmed = diagram
        while trimmed.last == "-" { trimmed.removeLast() }
        #expect(drawn == trimmed)
        let again = DispatchQueue.test
        #expect(again.marbles(of: again.createColdPublisher(marbles: drawn, error: KitError())) == drawn)
    }

    @Test func drawingAHotRecordingAndParsingItBackGivesTheSameEvents() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createHotPublisher(marbles: "-a-^-b-(cd)--e-|")
        let recorder = scheduler.record(source)
        scheduler.run()
        let drawn = recorder.marbles()
        #expect(drawn == "--b-(cd)--e-|")
        let replay = DispatchQueue.test.createColdPublisher(marbles: drawn)
        #expect(replay.script == recorder.events.dropFirst().map { $0 })
    }
}
