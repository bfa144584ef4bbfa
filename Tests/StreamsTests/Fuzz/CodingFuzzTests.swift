import Foundation
import Streams
import StreamsTesting
import Testing

/// `decode(type:decoder:)` fed malformed data, and `encode(encoder:)` fed values that cannot be
/// encoded, with the subscriber asking for a few values at a time.
///
/// Each case is a random list of inputs, played through the operator by a sequence publisher; the
/// expected outcome is what the coder does with each input on its own: the values that decode (or
/// encode) in order, up to the first input that does not, then a failure carrying that very error,
/// with the upstream let go. At every step the subscriber has exactly as many values as it asked
/// for, or as there are.
///
/// Seeded: a failure prints the seed and the case. To replay it, set `STREAMS_MODEL_SEED` to the
/// seed and `STREAMS_MODEL_CASE` to the case; `STREAMS_MODEL_CASES` changes how many cases a test
/// plays.
@Suite(.timeLimit(.minutes(1))) struct CodingFuzzTests {
    static let defaultSeed: UInt64 = 0xC0D1_4E55
    static let defaultCaseCount = 500

    /// A record, as an API would send it.
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var score: Double?
        var tags: [String]
    }

    /// Arrays nested in arrays, `[[[]]]`: a target for deep nesting that decodes without trying
    /// one type after another (each failed try would cost as much as the depth).
    struct ArrayNest: Decodable, Equatable {
        var inner: [ArrayNest]

        init(from decoder: any Decoder) throws {
            inner = try decoder.singleValueContainer().decode([ArrayNest].self)
        }
    }

    /// Objects nested in objects, `{"a":{"a":null}}`: the other target for deep nesting.
    indirect enum ObjectNest: Decodable, Equatable {
        case leaf
        case node(ObjectNest)

        private enum Key: CodingKey {
            case a
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            self = try container.decodeIfPresent(ObjectNest.self, forKey: .a).map(ObjectNest.node) ?? .leaf
        }
    }

    /// Every input decoded as an item, an array nest or an object nest; each also gets the inputs
    /// meant for the others.
    @Test func decodeSendsWhatDecodesThenTheDecodersError() throws {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: 1 << 32 | index)
            let inputs = (0..<random.int(in: 0...6)).map { _ in Self.json(using: &random) }
            let demands = (0..<8).map { _ in random.int(in: 0...3) }
            let problem: String? =
                switch random.int(in: 0...5) {
                case 0:
                    Self.play(
                        inputs, demands: demands,
                        through: { $0.decode(type: ArrayNest.self, decoder: JSONDecoder()) },
                        expected: { data in Result { try JSONDecoder().decode(ArrayNest.self, from: data) } })
                case 1:
                    Self.play(
                        inputs, demands: demands,
                        through: { $0.decode(type: ObjectNest.self, decoder: JSONDecoder()) },
                        expected: { data in Result { try JSONDecoder().decode(ObjectNest.self, from: data) } })
                default:
                    Self.play(
                        inputs, demands: demands,
                        through: { $0.decode(type: Item.self, decoder: JSONDecoder()) },
                        expected: { data in Result { try JSONDecoder().decode(Item.self, from: data) } })
                }
            guard let problem else { continue }
            Issue.record(
                """
                decode(type:decoder:) case \(index): \(problem)
                inputs: \(inputs.map { String(decoding: $0.prefix(120), as: UTF8.self).debugDescription })
                demands: \(demands)
                Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter CodingFuzzTests
                """)
            failures += 1
            if failures == 5 { break }
        }
    }

    /// Items encoded with a JSON encoder that throws for a score JSON cannot hold (not a number, an
    /// infinity).
    @Test func encodeSendsWhatEncodesThenTheEncodersError() throws {
        let seed = ModelRun.seed(default: Self.defaultSeed)
        var failures = 0
        for index in ModelRun.cases(default: Self.defaultCaseCount) {
            var random = SeededRandom(seed: seed, stream: 2 << 32 | index)
            let inputs = (0..<random.int(in: 0...6)).map { _ in Self.item(using: &random) }
            let demands = (0..<8).map { _ in random.int(in: 0...3) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let problem = Self.play(
                inputs, demands: demands, through: { $0.encode(encoder: encoder) },
                expected: { item in Result { try encoder.encode(item) } })
            guard let problem else { continue }
            Issue.record(
                """
                encode(encoder:) case \(index): \(problem)
                inputs: \(inputs)
                demands: \(demands)
                Replay with STREAMS_MODEL_SEED=\(seed) STREAMS_MODEL_CASE=\(index) swift test --filter CodingFuzzTests
                """)
            failures += 1
            if failures == 5 { break }
        }
    }

    /// The fuzzer's own check: its inputs include both kinds, so neither side goes unexercised.
    @Test func inputsIncludeDataThatDecodesAndDataThatDoesNot() {
        var random = SeededRandom(seed: Self.defaultSeed, stream: 0)
        let outcomes = (0..<200).map { _ in
            (try? JSONDecoder().decode(Item.self, from: Self.json(using: &random))) != nil
        }
        #expect(outcomes.filter { $0 }.count > 40)
        #expect(outcomes.filter { !$0 }.count > 40)
    }

    // MARK: - Playing

    /// Plays `inputs` through `operation` with the subscriber asking for `demands` in turn, and
    /// returns what differs from `expected`, or `nil`.
    static func play<Input, Output: Equatable, P: Publisher>(
        _ inputs: [Input], demands: [Int], through operation: (Publishers.Sequence<[Input], Never>) -> P,
        expected: (Input) -> Result<Output, any Error>
    ) -> String? where P.Output == Output, P.Failure == any Error {
        var good: [Output] = []
        var firstError: (any Error)?
        for input in inputs {
            switch expected(input) {
            case .success(let output): good.append(output)
            case .failure(let error): firstError = error
            }
            if firstError != nil { break }
        }
        let subscriber = TestSubscriber<Output, any Error>(initialDemand: .none)
        operation(inputs.publisher).subscribe(subscriber)
        var asked = 0
        for (step, demand) in ([0] + demands + [inputs.count + 1]).enumerated() {
            if demand > 0 {
                subscriber.request(.max(demand))
                asked += demand
            }
            let owed = Array(good.prefix(asked))
            guard subscriber.values == owed else {
                return "after asking for \(asked) (step \(step)), values \(subscriber.values), expected \(owed)"
            }
            let completion = subscriber.completion
            let state =
                "after asking for \(asked) (step \(step)), completion \(String(describing: completion)); "
                + "\(good.count) of \(inputs.count) inputs are good, then \(String(describing: firstError))"
            switch completion {
            case nil:
                // Owed: the failure once the bad input was asked for, or the end once all were.
                let owed = firstError == nil ? asked >= inputs.count : asked > good.count
                if owed { return state }
            case .finished?:
                if firstError != nil || asked < inputs.count { return state }
            case .failure(let actual)?:
                guard let firstError, asked > good.count else { return state }
                guard String(describing: actual) == String(describing: firstError) else {
                    return "failed with \(actual), the coder throws \(firstError)"
                }
            }
        }
        return nil
    }

    // MARK: - Inputs

    /// One JSON input: a good item, or data broken in one of many ways.
    static func json(using random: inout SeededRandom) -> Data {
        let good = try! JSONEncoder().encode(item(using: &random, encodable: true))
        switch random.int(in: 0...13) {
        case 0...4:
            return good
        case 5:
            return good.prefix(random.int(in: 0...(good.count - 1)))
        case 6:
            return Data((0..<random.int(in: 0...40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 7:
            var bytes = Array(good)
            bytes[random.int(in: 0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: random.next())
            return Data(bytes)
        case 8:
            return Data(
                random.pick([
                    "", "null", "[]", "{}", "[1,2]", "\"item\"", "true", #"{"id":"7","name":"x","tags":[]}"#,
                    #"{"id":1,"name":null,"tags":[]}"#, #"{"id":1,"name":"x","tags":"a"}"#,
                    #"{"id":1,"name":"x","tags":[],"score":"NaN"}"#, #"{"id":1,"name":"x","tags":[1]}"#,
                    #"{"ID":1,"name":"x","tags":[]}"#,
                ]).utf8)
        case 9:
            let number = random.pick([
                "9223372036854775808", "-9223372036854775809", "1e400", "-1e400", "1e-400", "1.5",
                "123456789012345678901234567890", "0x10", "01", "-0", "NaN", "Infinity", "1e", "-",
            ])
            let field = random.chance(50) ? "id" : "score"
            return Data(#"{"id":1,"name":"x","tags":[],"\#(field)":\#(number)}"#.utf8)
        case 10:
            let depth = random.int(in: 1...700)
            let inner = random.chance(50) ? "" : "1"
            return Data((String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)).utf8)
        case 11:
            let depth = random.int(in: 1...700)
            return Data(
                (String(repeating: #"{"a":"#, count: depth) + "null" + String(repeating: "}", count: depth)).utf8)
        case 12:
            // Invalid UTF-8, a byte-order mark, or a string with bad escapes.
            return random.pick([
                Data([0xEF, 0xBB, 0xBF]) + good, Data([0xFF, 0xFE]) + good,
                Data(#"{"id":1,"name":"\#u{0}","tags":[]}"#.utf8),
                Data(#"{"id":1,"name":"\ud800","tags":[]}"#.utf8), Data(#"{"id":1,"name":"\x","tags":[]}"#.utf8),
                Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]),
            ])
        default:
            return good + Data(random.pick([" ", "x", "}", "{}", "\n"]).utf8)
        }
    }

    /// An item; unless `encodable`, its score is sometimes a number JSON cannot hold.
    static func item(using random: inout SeededRandom, encodable: Bool = false) -> Item {
        let score: Double? =
            switch random.int(in: 0...5) {
            case 0: nil
            case 1 where !encodable: random.pick([.nan, .infinity, -.infinity])
            case 2: random.pick([0, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e300])
            default: Double(random.int(in: -1_000...1_000)) / 8
            }
        let name = String((0..<random.int(in: 0...6)).map { _ in random.pick(Array("ab é🙂\"\\\n")) })
        return Item(
            id: random.pick([0, 1, -1, Int.max, Int.min, random.int(in: -99...99)]), name: name, score: score,
            tags: (0..<random.int(in: 0...2)).map { "t\($0)" })
    }
}
