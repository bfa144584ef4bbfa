import Foundation
import Streams
import Testing

@Suite struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func constantsAndMax() {
        #expect(Demand.none == .max(0))
        #expect(Demand.none.max == 0)
        #expect(Demand.max(7).max == 7)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(3).description == "max(3)")
    }

    @Test func additionSaturatesToUnlimited() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(2) == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.unlimited + 1 == .unlimited)
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 2
        #expect(demand == .max(4))
    }

    @Test func subtractionNeverGoesNegative() {
        #expect(Demand.max(5) - .max(3) == .max(2))
        #expect(Demand.max(3) - .max(5) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 2 == .max(3))
        #expect(Demand.max(1) - 2 == .none)
        #expect(Demand.unlimited - 2 == .unlimited)
        var demand = Demand.max(4)
        demand -= .max(1)
        demand -= 1
        #expect(demand == .max(2))
    }

    @Test func multiplicationSaturates() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisons() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(!(Demand.unlimited < .max(1)))
        #expect(Demand.unlimited > 1_000_000)
        #expect(Demand.max(3) > 2)
        #expect(!(Demand.max(3) > 3))
        #expect(Demand.max(3) >= 3)
        #expect(Demand.max(3) < 4)
        #expect(!(Demand.unlimited < 4))
        #expect(Demand.max(3) <= 3)
        #expect(!(Demand.unlimited <= Int.max))
        #expect(4 > Demand.max(3))
        #expect(!(4 > Demand.unlimited))
        #expect(3 >= Demand.max(3))
        #expect(2 < Demand.max(3))
        #expect(2 < Demand.unlimited)
        #expect(3 <= Demand.max(3))
        #expect(Demand.max(3) == 3)
        #expect(Demand.max(3) != 4)
        #expect(3 == Demand.max(3))
        #expect(Demand.unlimited != 3)
        #expect(Demand.max(0) == .none)
        #expect(Demand.max(1) != .none)
    }

    @Test func codableRoundTrip() throws {
        let demands: [Demand] = [.none, .max(42), .unlimited]
        let data = try JSONEncoder().encode(demands)
        #expect(try JSONDecoder().decode([Demand].self, from: data) == demands)
    }

    @Test func countsBeyondAnIntDecodeAsUnlimitedAndNegativeOnesAreRejected() throws {
        struct Wrapped: Codable, Equatable {
            let demand: Demand
        }
        let beyond = UInt(Int.max) + 5
        let decoded = try JSONDecoder().decode(Wrapped.self, from: Data(#"{"demand":\#(beyond)}"#.utf8))
        #expect(decoded.demand == .unlimited)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wrapped.self, from: Data(#"{"demand":-3}"#.utf8))
        }
        let encodedUnlimited = try JSONEncoder().encode(Wrapped(demand: .unlimited))
        #expect(encodedUnlimited == Data(#"{"demand":\#(UInt(Int.max) + 1)}"#.utf8))
    }

    @Test func subtractingANegativeCountThatOverflowsGivesNone() {
        #expect(Demand.max(Int.max) - (-1) == .none)
        #expect(Demand.max(3) - Int.min == .none)
        #expect(Demand.max(3) - (-2) == .max(5))
        #expect(Demand.max(3) - 5 == .none)
        #expect(Demand.unlimited - (-1) == .unlimited)
        var demand = Demand.max(Int.max)
        demand -= -1
        #expect(demand == .none)
    }

    @Test func hashingAgreesWithEquality() {
        let set: Set<Demand> = [.max(1), .max(1), .unlimited, .none]
        #expect(set.count == 3)
    }

    @Test func negativeMaxIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(Int(CommandLine.arguments.count) - 100)
        }
        expectTrapMessage(trap1, contains: "Subscribers.Demand.max requires a non-negative number of elements, got -97")
    }
}
