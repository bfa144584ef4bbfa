import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// The syntax of marble diagrams, through the publishers they script.
@Suite struct MarbleDiagramTests {
    @Test func eachCharacterIsOneFrameAndValuesComeFromTheDictionary() {
        let scheduler = DispatchQueue.test
        let numbers = scheduler.createColdPublisher(marbles: "a--b-|", values: ["a": 1, "b": 2])
        #expect(
            numbers.script == [
                .value(1, at: .zero), .value(2, at: .seconds(3)), .finished(at: .seconds(5)),
            ])
    }

    @Test func theFrameSetsHowLongEachCharacterLasts() {
        let scheduler = DispatchQueue.test
        let numbers = scheduler.createColdPublisher(
            marbles: "-a-|", values: ["a": 1], frame: .milliseconds(100))
        #expect(numbers.script == [.value(1, at: .milliseconds(100)), .finished(at: .milliseconds(300))])
    }

    @Test func withoutADictionaryEachCharacterIsItsOwnValue() {
        let scheduler = DispatchQueue.test
        let letters = scheduler.createColdPublisher(marbles: "x-9|")
        #expect(letters.script == [.value("x", at: .zero), .value("9", at: .seconds(2)), .finished(at: .seconds(3))])

        let characters = scheduler.createColdPublisher(marbles: "x-9|", outputType: Character.self)
        #expect(
            characters.script == [.value("x", at: .zero), .value("9", at: .seconds(2)), .finished(at: .seconds(3))])

        let digits = scheduler.createHotPublisher(marbles: "1-9", outputType: Int.self)
        #expect(digits.script == [.value(1, at: .zero), .value(9, at: .seconds(2))])
    }

    @Test func hashFailsWithTheGivenError() {
        let scheduler = DispatchQueue.test
        let failing = scheduler.createColdPublisher(marbles: "a-#", values: ["a": 1], error: KitError(code: 7))
        #expect(failing.script == [.value(1, at: .zero), .failure(KitError(code: 7), at: .seconds(2))])

        let letters = scheduler.createHotPublisher(marbles: "-#", error: KitError())
        #expect(letters.script == [.failure(KitError(), at: .seconds(1))])
    }

    @Test func aGroupHappensAtTheFrameOfItsParenthesisAndStillTakesItsColumns() {
        let scheduler = DispatchQueue.test
        let grouped = scheduler.createColdPublisher(marbles: "-(ab)c(d|)")
        #expect(
            grouped.script == [
                .value("a", at: .seconds(1)),
                .value("b", at: .seconds(1)),
                .value("c", at: .seconds(5)),
                .value("d", at: .seconds(6)),
                .finished(at: .seconds(6)),
            ])
    }

    @Test func spacesTakeNoTime() {
        let scheduler = DispatchQueue.test
        let spaced = scheduler.createColdPublisher(marbles: "  a - b  |")
        let tight = scheduler.createColdPublisher(marbles: "a-b|")
        #expect(spaced.script == tight.script)
    }

    @Test func dashesAfterTheCompletionAreOnlyTime() {
        let scheduler = DispatchQueue.test
        let padded = scheduler.createColdPublisher(marbles: "a|---")
        #expect(padded.script == [.value("a", at: .zero), .finished(at: .seconds(1))])
    }

    @Test func caretIsTimeZeroOfAHotPublisher() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher(marbles: "--^-a-(b|)")
        #expect(hot.script == [.value("a", at: .seconds(2)), .value("b", at: .seconds(4)), .finished(at: .seconds(4))])
    }

    @Test func valuesBeforeTheCaretReachNobody() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher(marbles: "a-b^c")
        #expect(hot.script == [.value("c", at: .seconds(1))])
        #expect(scheduler.marbles(of: hot) == "-c")
    }

    @Test func aCompletionBeforeTheCaretHasHappenedByTimeZero() {
        let scheduler = DispatchQueue.test
        let over = scheduler.createHotPublisher(marbles: "a|-^--")
        #expect(over.script == [.finished(at: .zero)])
        #expect(scheduler.marbles(of: over) == "|")
    }

    @Test func aHotDiagramWithoutACaretStartsAtItsFirstColumn() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher(marbles: "a-b")
        #expect(hot.script == [.value("a", at: .zero), .value("b", at: .seconds(2))])
    }

    // MARK: Malformed diagrams fail the test, and the run goes on

    @Test func aMalformedDiagramGivesAPublisherThatSendsNothing() {
        let scheduler = DispatchQueue.test
        var cold: ColdTestPublisher<String, Never, DispatchQueue.SchedulerTimeType>?
        expectMisuse("Malformed marble diagram \"a-(b\", column 3") {
            cold = scheduler.createColdPublisher(marbles: "a-(b")
        }
        #expect(cold?.script == [])
        #expect(scheduler.marbles(of: cold!) == "")
    }

    @Test func anUnclosedGroupFailsTheTest() {
        expectMisuse("Malformed marble diagram \"--a--(b|\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "--a--(b|")
        }
    }

    @Test func aGroupInsideAGroupFailsTheTest() {
        expectMisuse("Malformed marble diagram \"(a(b))\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "(a(b))")
        }
    }

    @Test func aClosingParenthesisWithoutAGroupFailsTheTest() {
        expectMisuse("Malformed marble diagram \"a)\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "a)")
        }
    }

    @Test func anEventAfterTheCompletionFailsTheTest() {
        expectMisuse("Malformed marble diagram \"a|-b\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "a|-b")
        }
        expectMisuse("Malformed marble diagram \"(|a)\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "(|a)")
        }
        expectMisuse("Malformed marble diagram \"#-|\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "#-|", error: KitError())
        }
    }

    @Test func twoCaretsFailTheTest() {
        expectMisuse("Malformed marble diagram \"-^-^a\"") {
            _ = DispatchQueue.test.createHotPublisher(marbles: "-^-^a")
        }
    }

    @Test func aCaretInAColdDiagramFailsTheTest() {
        expectMisuse("Malformed marble diagram \"-^-a\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "-^-a")
        }
    }

    @Test func aCharacterWithoutAValueFailsTheTest() {
        expectMisuse("Malformed marble diagram \"a-b\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "a-b", values: ["a": 1])
        }
        expectMisuse("Malformed marble diagram \"1-x\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "1-x", outputType: Int.self)
        }
    }

    @Test func aFailureInAPublisherThatCannotFailFailsTheTest() {
        expectMisuse("Malformed marble diagram \"a-#\"") {
            _ = DispatchQueue.test.createColdPublisher(marbles: "a-#")
        }
    }

    @Test func aCancellationMarkInAnEventDiagramFailsTheTest() {
        expectMisuse("Malformed marble diagram \"a-!\"") {
            _ = DispatchQueue.test.createHotPublisher(marbles: "a-!")
        }
    }

    @Test func aMalformedExpectedDiagramFailsTheTest() {
        expectMisuse("Malformed marble diagram \"(a|\"") {
            let scheduler = DispatchQueue.test
            scheduler.expect(Just("a"), marbles: "(a|")
        }
    }

    @Test func aMalformedDiagramIsReportedWhereThePublisherIsCreated() {
        let s = DispatchQueue.test
        let values: [Character: Int] = ["a": 1]
        let error = KitError()
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(a", values: values) }
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(a", values: values, error: error) }
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(a") }
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(a", error: error) }
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(1", outputType: Int.self) }
        expectReported(atLine: #line) { _ = s.createColdPublisher(marbles: "(1", outputType: Int.self, error: error) }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(a", values: values) }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(a", values: values, error: error) }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(a") }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(a", error: error) }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(1", outputType: Int.self) }
        expectReported(atLine: #line) { _ = s.createHotPublisher(marbles: "(1", outputType: Int.self, error: error) }
    }

    @Test func aDiagramThePublisherCannotPlayIsReportedWhereItIsCreated() {
        let scheduler = DispatchQueue.test
        expectReported(atLine: #line) { _ = scheduler.createColdPublisher(marbles: "a", frame: .zero) }
        expectReported(atLine: #line) { _ = scheduler.createHotPublisher(marbles: "a", frame: .seconds(-1)) }
        expectReported(atLine: #line) { _ = scheduler.createColdPublisher(marbles: "a#") }
        expectReported(atLine: #line) { _ = scheduler.createHotPublisher(marbles: "a#", values: ["a": 1]) }
    }
}
