import Foundation

/// Puts generated texts into an article's code blocks: the fenced block after each
/// `<!-- timeline-text: name -->` line gets the text named `name`.
struct TimelineArticleText {
    /// The texts, by name.
    let texts: [String: String]

    /// `article` with each marked block's content replaced by its text; a marker without a text or
    /// without a fenced block after it is left as it is.
    func applied(to article: String) -> String {
        var lines = article.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("<!-- timeline-text: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- timeline-text: ".count).dropLast(" -->".count))
            guard let text = texts[name], index + 1 < lines.count, lines[index + 1].hasPrefix("```"),
                let close = lines[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") })
            else { continue }
            lines.replaceSubrange(
                (index + 2)..<close,
                with: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        return lines.joined(separator: "\n")
    }
}
