import Dispatch
import Streams
import StreamsTesting
import Testing

/// Marble pictures: what they record from a run, the words of their alternative text, and the SVG
/// they draw.
@Suite struct MarblePictureTests {
    typealias Picture = MarblePicture<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>

    /// Where the time axis starts in a picture whose line titles are short: the margin (12), the
    /// narrowest title column (64) and a gap (8).
    static let axisStart = 84.0
    /// How wide one column is.
    static let columnWidth = 40.0

    /// The debounce picture of the documentation's example.
    static func debouncePicture() -> Picture {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "debounce(for: .seconds(2), scheduler: scheduler)", scheduler: scheduler)
        let keys = picture.input("keys", scheduler.createHotPublisher(marbles: "-a-b----c--|"))
        picture.output(keys.debounce(for: .seconds(2), scheduler: scheduler))
        scheduler.run()
        return picture
    }

    @Test func theAltTextSaysWhatEachLineReceivedAndWhen() {
        #expect(
            Self.debouncePicture().altText
                == "A marble diagram of debounce(for: .seconds(2), scheduler: scheduler). keys sends a at 1 s, b at 3 s and c at 8 s, then finishes at 11 s. output sends b at 5 s and c at 10 s, then finishes at 11 s."
        )
    }

    @Test func theSameRunDrawsTheSamePictureByteForByte() {
        let first = Self.debouncePicture()
        let second = Self.debouncePicture()
        #expect(first.svg() == second.svg())
        #expect(first.svg(appearance: .dark) == second.svg(appearance: .dark))
    }

    @Test func theAppearancesDifferOnlyInTheirColours() {
        let picture = Self.debouncePicture()
        let light = picture.svg(appearance: .light)
        let dark = picture.svg(appearance: .dark)
        #expect(light != dark)
        #expect(withoutColours(light) == withoutColours(dark))
    }

    @Test func theSVGCarriesTheAltTextAsItsAccessibleDescription() {
        let picture = Self.debouncePicture()
        let svg = picture.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains("<desc id=\"marble-desc\">\(picture.altText)</desc>"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func textIsEscapedForXML() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "filter { $0 < 3 && $0 > 0 }", scheduler: scheduler)
        let numbers = picture.input("upstream", scheduler.createHotPublisher(marbles: "-1-|", outputType: Int.self))
        picture.output(numbers.filter { $0 < 3 && $0 > 0 })
        scheduler.run()
        let svg = picture.svg()
        #expect(svg.contains(">filter { $0 &lt; 3 &amp;&amp; $0 &gt; 0 }</text>"))
        #expect(!svg.contains("$0 < 3"))
        #expect(picture.altText.hasPrefix("A marble diagram of filter { $0 < 3 && $0 > 0 }."))
    }

    @Test func aValueIsDrawnAtItsTimeOneColumnPerFrame() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "map { $0 }", scheduler: scheduler)
        let numbers = picture.input("up", scheduler.createHotPublisher(marbles: "--7|", outputType: Int.self))
        picture.output(numbers.map { $0 })
        scheduler.run()
        // The marble of the value at 2 s is a circle 30 points wide centred on column 2.
        let left = Self.axisStart + 2 * Self.columnWidth - 15
        #expect(picture.svg().components(separatedBy: "<rect x=\"\(Int(left))\" y=").count == 3)  // input and output
    }

    @Test func anEventBetweenFramesIsDrawnBetweenColumns() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "delay(for: .milliseconds(500), scheduler: scheduler)", scheduler: scheduler)
        let numbers = picture.input("up", scheduler.createHotPublisher(marbles: "-7", outputType: Int.self))
        picture.output(numbers.delay(for: .milliseconds(500), scheduler: scheduler))
        scheduler.advance(by: .seconds(3))
        let left = Self.axisStart + 1.5 * Self.columnWidth - 15
        #expect(picture.svg().contains("<rect x=\"\(Int(left))\" y="))
        #expect(picture.altText.hasSuffix("output sends 7 at 1.5 s."))
    }

    @Test func aCancellationIsDrawnAndNamedInTheLegend() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "prefix(1)", scheduler: scheduler)
        let numbers = picture.input("upstream", scheduler.createHotPublisher(marbles: "-1-2-|", outputType: Int.self))
        picture.output(numbers.prefix(1))
        scheduler.run()
        #expect(
            picture.altText
                == "A marble diagram of prefix(1). upstream sends 1 at 1 s, then is cancelled at 1 s. output sends 1 at 1 s, then finishes at 1 s."
        )
        let svg = picture.svg()
        #expect(svg.components(separatedBy: "stroke-dasharray").count == 3)  // on the line and in the legend
        #expect(svg.contains(">cancelled</text>"))
        #expect(svg.contains(">finished</text>"))
        #expect(!svg.contains(">failed</text>"))
    }

    @Test func aSubscriberThatCancelsIsDrawnCancelledOnItsOutputLine() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "map { $0 }", scheduler: scheduler)
        let numbers = picture.input("upstream", scheduler.createHotPublisher(marbles: "-1-2-3|", outputType: Int.self))
        let recorder = picture.output(numbers.map { $0 })
        recorder.cancel(at: .seconds(4))
        scheduler.run()
        #expect(
            picture.altText
                == "A marble diagram of map { $0 }. upstream sends 1 at 1 s and 2 at 3 s, then is cancelled at 4 s. output sends 1 at 1 s and 2 at 3 s, then is cancelled at 4 s."
        )
    }

    /// (The only subscriber of `share()` cancelling cancels the upstream; the next one subscribes
    /// to it again.)
    @Test func aSubscribersLineSpeaksOfWhatItReceived() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "share()", scheduler: scheduler)
        let numbers = picture.input("upstream", scheduler.createHotPublisher(marbles: "-1-2-3|", outputType: Int.self))
        let shared = numbers.share()
        picture.output(shared, title: "early").cancel(at: .seconds(2))
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {
            picture.output(shared, title: "late")
        }
        scheduler.run()
        #expect(
            picture.altText
                == "A marble diagram of share(). upstream: subscription 1, at 0 s, sends 1 at 1 s, then is cancelled at 2 s; subscription 2, at 2 s, sends 2 at 3 s and 3 at 5 s, then finishes at 6 s. early receives 1 at 1 s, then cancels at 2 s. late subscribes at 2 s, then receives 2 at 3 s and 3 at 5 s, then the completion at 6 s."
        )
    }

    @Test func eachSubscriptionOfAnInputIsASegmentOfItsLine() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "retry(1)", scheduler: scheduler)
        let failing = picture.input(
            "upstream", scheduler.createColdPublisher(marbles: "-1#", outputType: Int.self, error: TestFailure()))
        picture.output(failing.retry(1))
        scheduler.run()
        #expect(
            picture.altText
                == "A marble diagram of retry(1). upstream: subscription 1, at 0 s, sends 1 at 1 s, then fails at 2 s with the test failure; subscription 2, at 2 s, sends 1 at 3 s, then fails at 4 s with the test failure. output sends 1 at 1 s and 1 at 3 s, then fails at 4 s with the test failure."
        )
        // A failure is a cross of two strokes in the failure colour: two on the input's line, one on
        // the output's, one in the legend.
        let failureColour = "stroke=\"#d70015\""
        #expect(picture.svg().components(separatedBy: failureColour).count - 1 == 2 * 4)
        #expect(picture.svg().contains(">failed</text>"))
    }

    @Test func linesAreDrawnInTheOrderOfTheirFirstSubscriptions() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "switchToLatest()", scheduler: scheduler)
        // The inner publisher's line is added first, but subscribed after the outer one.
        let inner = picture.input("inner", scheduler.createColdPublisher(marbles: "-a|"))
        let outer = picture.input("outer", scheduler.createHotPublisher(marbles: "-x-|", values: ["x": inner]))
        picture.output(outer.switchToLatest())
        scheduler.run()
        let text = picture.altText
        let outerAt = text.range(of: "outer sends")?.lowerBound
        let innerAt = text.range(of: "inner is subscribed at 1 s")?.lowerBound
        #expect(outerAt != nil && innerAt != nil && outerAt! < innerAt!)
        let svg = picture.svg()
        let outerTitle = svg.range(of: ">outer</text>")?.lowerBound
        let innerTitle = svg.range(of: ">inner</text>")?.lowerBound
        #expect(outerTitle != nil && innerTitle != nil && outerTitle! < innerTitle!)
    }

    @Test func eventsAtOneInstantAreSetSideBySideInOrder() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "last()", scheduler: scheduler)
        let numbers = picture.input("up", scheduler.createHotPublisher(marbles: "-1-2|", outputType: Int.self))
        picture.output(numbers.last())
        scheduler.run()
        let svg = picture.svg()
        // On the output line, the value 2 at 4 s is centred on column 4 and the completion follows it.
        let centre = Self.axisStart + 4 * Self.columnWidth
        #expect(svg.contains("<rect x=\"\(Int(centre - 15))\""))
        #expect(svg.contains("<line x1=\"\(Int(centre + 15 + 4 + 5))\""))
    }

    @Test func aLineNeverSubscribedSaysSo() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "append(never)", scheduler: scheduler)
        let first = picture.input("first", scheduler.createHotPublisher(marbles: "-1-", outputType: Int.self))
        let never = picture.input("never", scheduler.createColdPublisher(marbles: "-2|", outputType: Int.self))
        picture.output(first.append(never))
        scheduler.advance(by: .seconds(3))
        #expect(
            picture.altText
                == "A marble diagram of append(never). first sends 1 at 1 s. never is never subscribed. output sends 1 at 1 s."
        )
    }

    @Test func thePictureSpansToTheSchedulersTime() {
        let scheduler = DispatchQueue.test
        let picture = Picture(of: "map { $0 }", scheduler: scheduler)
        let numbers = picture.input("up", scheduler.createHotPublisher(marbles: "-1", outputType: Int.self))
        picture.output(numbers.map { $0 })
        scheduler.advance(by: .seconds(9))
        // Columns 0 to 10 are labelled on the ruler: one past the scheduler's time.
        let svg = picture.svg()
        #expect(svg.contains(">10 s</text>"))
        #expect(!svg.contains(">11 s</text>"))
    }

    /// The document with every `#rrggbb` colour removed.
    private func withoutColours(_ svg: String) -> String {
        var result = ""
        var skipping = 0
        for character in svg {
            if skipping > 0 {
                skipping -= 1
                continue
            }
            if character == "#" {
                skipping = 6
                continue
            }
            result.append(character)
        }
        return result
    }
}

/// The failure of the pictures' failing publishers.
private struct TestFailure: Error, CustomStringConvertible {
    var description: String { "the test failure" }
}
