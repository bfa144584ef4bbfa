@testable import StreamsTesting

/// Random marble diagrams for the marble fuzzers: strings over the marble alphabet, values, spaces
/// and arbitrary characters (unicode, control characters, grapheme clusters), with unbalanced
/// groups, several ends and carets, some of them very long, and some that are valid diagrams of
/// their kind with a few characters changed.
enum MarbleFuzzInput {
    /// Characters that stand for values in the fuzzers' value dictionaries.
    static let valueKeys: [Character] = ["a", "b", "c", "1", "2"]

    /// Characters that are neither marble symbols nor keys of ``valueKeys``: some a lossless reading
    /// still accepts (`x`, `9`), and some that are more than one scalar or are control characters.
    static let strangers: [Character] = [
        "x", "9", "é", "e\u{301}", "🙂", "👩‍👩‍👧", "字", "\u{0}", "\n", "\r\n", "\t", "\"", "\\", "\u{200B}", "ß",
        "-\u{301}",
    ]

    /// A random diagram for `kind`.
    static func diagram(for kind: MarbleDiagram.Kind, using random: inout SeededRandom) -> String {
        switch random.int(in: 0...9) {
        case 0: return ""
        case 1...4: return mutated(valid(for: kind, using: &random), using: &random)
        case 5...7: return soup(for: kind, length: random.int(in: 1...24), using: &random)
        case 8: return valid(for: kind, using: &random)
        default:
            // Very long: a valid stretch, or soup, of a few thousand characters.
            if random.chance(50) {
                return soup(for: kind, length: random.int(in: 500...3_000), using: &random)
            }
            return String(repeating: "-", count: random.int(in: 200...2_000)) + valid(for: kind, using: &random)
        }
    }

    /// A diagram that follows the rules of `kind` (values from ``valueKeys``).
    static func valid(for kind: MarbleDiagram.Kind, using random: inout SeededRandom) -> String {
        var text = ""
        func gap() {
            text += String(repeating: random.chance(20) ? " " : "-", count: random.int(in: 0...3))
        }
        if kind == .subscription {
            gap()
            let cancels = random.chance(60)
            if cancels && random.chance(25) {
                text += "(^!)"
            } else {
                text += "^"
                gap()
                if cancels { text += "!" }
            }
            gap()
            return text
        }
        let caretAt = kind == .hot && random.chance(60) ? random.int(in: 0...4) : nil
        let eventCount = random.int(in: 0...5)
        for index in 0...eventCount {
            if index == caretAt { text += "^" }
            gap()
            guard index < eventCount else { break }
            if random.chance(25) {
                text += "(" + (0..<random.int(in: 1...3)).map { _ in String(random.pick(valueKeys)) }.joined()
                if index == eventCount - 1, random.chance(50) { text += random.pick(["|", "#"]) }
                text += ")"
            } else {
                text.append(random.pick(valueKeys))
            }
        }
        if random.chance(40), !text.hasSuffix(")") {
            text += random.pick(["|", "#"])
            gap()
        }
        return text
    }

    /// `text` with one to three characters inserted, removed or replaced.
    static func mutated(_ text: String, using random: inout SeededRandom) -> String {
        var characters = Array(text)
        for _ in 0..<random.int(in: 1...3) {
            let spot = random.int(in: 0...characters.count)
            switch random.int(in: 0...2) {
            case 0:
                characters.insert(anyCharacter(using: &random), at: spot)
            case 1 where spot < characters.count:
                characters.remove(at: spot)
            default:
                if spot < characters.count { characters[spot] = anyCharacter(using: &random) }
            }
        }
        return String(characters)
    }

    /// `length` characters drawn mostly from the symbols `kind` uses.
    static func soup(for kind: MarbleDiagram.Kind, length: Int, using random: inout SeededRandom) -> String {
        var text = ""
        for _ in 0..<length {
            if kind == .subscription && random.chance(70) {
                text.append(random.pick(["-", "-", "^", "!", "(", ")", " "]))
            } else {
                text.append(anyCharacter(using: &random))
            }
        }
        return text
    }

    /// One character: a symbol, a value key or a stranger.
    static func anyCharacter(using random: inout SeededRandom) -> Character {
        let value = random.pick(valueKeys)
        let stranger = random.pick(strangers)
        return random.pick(weighted: [
            (30, "-"), (6, " "), (5, "("), (5, ")"), (4, "|"), (4, "#"), (3, "^"), (3, "!"), (25, value),
            (15, stranger),
        ])
    }

    /// A kind, all equally likely.
    static func kind(using random: inout SeededRandom) -> MarbleDiagram.Kind {
        random.pick([.cold, .hot, .expected, .subscription])
    }
}
