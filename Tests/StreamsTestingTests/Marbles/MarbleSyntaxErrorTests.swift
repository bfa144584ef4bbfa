import Testing

@testable import StreamsTesting

/// What the parser says about a malformed diagram: the message a public API stops the program with
/// (MarbleDiagramTests checks that it does stop).
@Suite struct MarbleSyntaxErrorTests {
    private func message(_ diagram: String, kind: MarbleDiagram.Kind = .cold, values: Set<Character> = ["a", "b"])
        -> String?
    {
        do {
            _ = try MarbleDiagram(diagram, kind: kind, unknownValueHint: "is not a key of values:") {
                values.contains($0)
            }
            return nil
        } catch {
            return error.description
        }
    }

    @Test func namesTheProblemAndItsColumn() {
        #expect(
            message("--a--(b|")
                == "Malformed marble diagram \"--a--(b|\", column 6: '(' opens a group that is never closed.")
        #expect(
            message("(a(b))")
                == "Malformed marble diagram \"(a(b))\", column 3: '(' opens a group inside the group opened at column 1; groups do not nest."
        )
        #expect(message("a)") == "Malformed marble diagram \"a)\", column 2: ')' closes no group.")
        #expect(
            message("a| b")
                == "Malformed marble diagram \"a| b\", column 4: 'b' after the '|' at column 2; nothing can follow the end."
        )
        #expect(
            message("(#a)")
                == "Malformed marble diagram \"(#a)\", column 3: 'a' after the '#' at column 2; nothing can follow the end."
        )
        #expect(
            message("a-x")
                == "Malformed marble diagram \"a-x\", column 3: 'x' is not a marble symbol and is not a key of values:."
        )
        #expect(
            message("a-!")
                == "Malformed marble diagram \"a-!\", column 3: '!' marks a cancellation, which only a subscription diagram can show."
        )
    }

    @Test func caretRules() {
        #expect(
            message("-^-a")
                == "Malformed marble diagram \"-^-a\", column 2: '^' marks time zero of a hot publisher; a cold publisher's diagram starts at its subscription."
        )
        #expect(
            message("^a", kind: .expected)
                == "Malformed marble diagram \"^a\", column 1: '^' marks time zero of a hot publisher; an expected diagram starts at time zero."
        )
        #expect(
            message("-^ -^a", kind: .hot)
                == "Malformed marble diagram \"-^ -^a\", column 5: a second '^'; the diagram has one already, at column 2."
        )
        #expect(
            message("(^a)", kind: .hot)
                == "Malformed marble diagram \"(^a)\", column 2: '^' inside the group opened at column 1; time zero cannot be in a group."
        )
        #expect(message("a^b", kind: .hot) == nil)
    }

    @Test func subscriptionDiagramRules() {
        #expect(message("--^--!", kind: .subscription) == nil)
        #expect(message("(^!)", kind: .subscription) == nil)
        #expect(
            message("--!", kind: .subscription)
                == "Malformed marble diagram \"--!\", column 3: '!' before the subscription '^'.")
        #expect(
            message("^-!-!", kind: .subscription)
                == "Malformed marble diagram \"^-!-!\", column 5: '!' after the '!' at column 3; nothing can follow the end."
        )
        #expect(
            message("---", kind: .subscription)
                == "Malformed marble diagram \"---\", column 1: no '^'; a subscription diagram shows when the subscription began."
        )
        #expect(
            message("^-a", kind: .subscription)
                == "Malformed marble diagram \"^-a\", column 3: 'a' in a subscription diagram, which shows only - ^ ! ( ) and spaces."
        )
    }

    @Test func framesCountFromTheCaret() throws {
        let diagram = try MarbleDiagram("a-^ -(b|)", kind: .hot)
        #expect(
            diagram.events == [
                .init(symbol: .value("a"), frame: -2, column: 1),
                .init(symbol: .value("b"), frame: 2, column: 7),
                .init(symbol: .finished, frame: 2, column: 8),
            ])
    }
}
