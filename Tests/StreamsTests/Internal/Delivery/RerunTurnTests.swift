@testable import Streams
import Testing

/// The rules of a rerun turn, as a value: one runner at a time; an ask during a run makes the runner
/// run once more, however many asks there were; a run that may not repeat gives the turn up.
@Suite struct RerunTurnTests {
    @Test func theFirstAskerRunsAndALaterOneLeavesItTheRun() {
        var turn = RerunTurn()
        let answers = [
            turn.claim(),  // runs
            turn.claim(),  // left to the runner
            turn.claim(),  // left to the runner
            turn.finishRun(),  // asked meanwhile: runs again
            turn.finishRun(),  // two asks made one more run, not two: gives the turn up
            turn.claim(),  // the turn is free
        ]
        #expect(answers == [true, false, false, true, false, true])
    }

    @Test func aRunWithNoAskGivesTheTurnUp() {
        var turn = RerunTurn()
        let answers = [turn.claim(), turn.finishRun(), turn.claim()]
        #expect(answers == [true, false, true])
    }

    @Test func aRunThatMayNotRepeatGivesTheTurnUpAndForgetsTheAsk() {
        var turn = RerunTurn()
        let answers = [
            turn.claim(),
            turn.claim(),
            turn.finishRun(mayRunAgain: false),  // may not repeat: gives the turn up
            turn.claim(),  // the turn is free
            turn.finishRun(),  // the ask made before was forgotten
        ]
        #expect(answers == [true, false, false, true, false])
    }
}
