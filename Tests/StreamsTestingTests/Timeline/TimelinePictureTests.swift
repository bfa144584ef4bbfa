import Dispatch
import Streams
import StreamsTesting
import Testing

/// Timeline pictures: drawn from a recorder's events on virtual time, as the marble diagrams are.
@Suite struct TimelinePictureTests {
    /// A search box: typed terms, deduplicated, then debounced; a prefix ends the subscription
    /// after two results.
    static func recorded() -> TimelineRecorder {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let terms = scheduler.createHotPublisher(marbles: "-a-a-b---c|")
        var cancellables: [AnyCancellable] = []
        terms
            .recordTimeline("typed", to: recorder)
            .removeDuplicates()
            .debounce(for: .seconds(2), scheduler: scheduler)
            .recordTimeline("search", to: recorder)
            .prefix(2)
            .sink { _ in }
            .store(in: &cancellables)
        scheduler.advance(by: .seconds(12))
        return recorder
    }

    @Test func theAltTextSaysWhatEachSubscriptionSawAndWhen() {
        #expect(
            TimelinePicture(Self.recorded()).altText
                == "A timeline of 2 subscriptions. typed #2 sends a at 1 s, a at 3 s and b at 5 s, then is cancelled at 7 s. search #1 sends a at 3 s and b at 7 s, then is cancelled at 7 s."
        )
    }

    @Test func aPictureDrawsALinePerSubscriptionWithoutAnOperatorBox() {
        let picture = TimelinePicture(Self.recorded())
        #expect(picture.frame == .milliseconds(500))
        let svg = picture.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains(">typed #2</text>"))
        #expect(svg.contains(">search #1</text>"))
        // Marbles: three typed values and two results; no box for a caption.
        #expect(svg.components(separatedBy: "<rect ").count - 1 == 5)
        #expect(svg.contains("<title id=\"marble-title\">A timeline of search, typed</title>"))
        #expect(picture.svg(appearance: .dark) != svg)
        #expect(picture.svg() == TimelinePicture(Self.recorded()).svg())
    }

    @Test func aFrameIsRoundAndFitsTheTimeline() {
        let recorder = TimelineRecorder(clock: TimelineClock { .milliseconds(730) })
        #expect(TimelinePicture(recorder).frame == .microseconds(1))
        let events = Just(1).recordTimeline("just", to: recorder).sink { _ in }
        #expect(TimelinePicture(recorder).frame == .microseconds(50_000))
        #expect(TimelinePicture(recorder, frame: .milliseconds(100)).frame == .milliseconds(100))
        #expect(TimelinePicture(recorder, frame: .zero).frame == .microseconds(50_000))
        _ = events
    }
}
