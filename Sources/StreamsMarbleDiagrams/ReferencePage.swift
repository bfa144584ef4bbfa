/// The documentation extension that puts diagrams on one reference page: DocC appends its content
/// to the symbol's own documentation.
struct ReferencePage {
    /// One diagram on the page.
    struct Diagram {
        /// The picture's resource name, without the appearance or the extension.
        var image: String
        var altText: String
        var caption: String
        var note: String
    }

    /// The symbol, as a DocC link relative to the module, such as `Publishers/Debounce`.
    let link: String
    let diagrams: [Diagram]

    /// The file's name: the link with every run of other characters than letters and digits as one
    /// hyphen, such as `Publisher-prefix-while.md`.
    var fileName: String {
        var name = ""
        for character in link {
            if character.isLetter || character.isNumber {
                name.append(character)
            } else if name.last != "-" {
                name.append("-")
            }
        }
        while name.last == "-" { name.removeLast() }
        return name + ".md"
    }

    var markdown: String {
        var lines = [
            "# ``Streams/\(link)``",
            "",
            "<!-- Drawn by Sources/StreamsMarbleDiagrams: change a scenario there, then run Scripts/draw-marble-diagrams.sh. -->",
            "",
            diagrams.count == 1 ? "## Marble Diagram" : "## Marble Diagrams",
            "",
            "Drawn from a run of the operator on a test scheduler, one column a second: the inputs above the"
                + " operator, what a subscriber received below it.",
        ]
        for diagram in diagrams {
            lines += ["", "![\(diagram.altText)](\(diagram.image))", "", "`\(diagram.caption)`: \(diagram.note)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
