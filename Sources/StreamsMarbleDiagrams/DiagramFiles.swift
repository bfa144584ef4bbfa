import Foundation
import StreamsTesting

/// Every file the diagrams make, by path inside the documentation catalog: each picture in both
/// appearances, and for each reference page that shows pictures, its documentation extension.
struct DiagramFiles {
    /// Where the pictures go, inside the catalog.
    static let pictureFolder = "Resources/Marbles"
    /// Where the reference pages' extensions go, inside the catalog.
    static let pageFolder = "Extensions/Marbles"
    /// Where the timelines the articles show go, inside the catalog.
    static let timelineFolder = "Resources/Timelines"

    /// The contents, by path relative to the catalog.
    private(set) var contents: [String: String] = [:]
    private(set) var pictureCount = 0
    private(set) var pageCount = 0
    /// Each picture's alternative text, by its resource name.
    private(set) var altTexts: [String: String] = [:]

    /// The generated texts the articles show, by the name their code blocks are marked with.
    private(set) var articleTexts: TimelineArticleText

    /// Runs every scenario and every timeline, and lays out what they drew.
    init(scenarios: [MarbleScenario], timelines: [String: TimelinePicture], texts: [String: String]) {
        articleTexts = TimelineArticleText(texts: texts)
        for (file, picture) in timelines {
            contents["\(Self.timelineFolder)/\(file).svg"] = picture.svg(appearance: .light)
            contents["\(Self.timelineFolder)/\(file)~dark.svg"] = picture.svg(appearance: .dark)
            pictureCount += 2
            altTexts[file] = picture.altText
        }
        var pages: [(link: String, diagrams: [ReferencePage.Diagram])] = []
        for scenario in scenarios {
            let picture = scenario.draw()
            let file = "marble-\(scenario.name)"
            contents["\(Self.pictureFolder)/\(file).svg"] = picture.svg(appearance: .light)
            contents["\(Self.pictureFolder)/\(file)~dark.svg"] = picture.svg(appearance: .dark)
            pictureCount += 2
            altTexts[file] = picture.altText
            let diagram = ReferencePage.Diagram(
                image: file, altText: picture.altText, caption: scenario.caption, note: scenario.note)
            for link in scenario.pages {
                if let index = pages.firstIndex(where: { $0.link == link }) {
                    pages[index].diagrams.append(diagram)
                } else {
                    pages.append((link, [diagram]))
                }
            }
        }
        for page in pages {
            let reference = ReferencePage(link: page.link, diagrams: page.diagrams)
            contents["\(Self.pageFolder)/\(reference.fileName)"] = reference.markdown
        }
        pageCount = pages.count
    }

    /// What differs between these files and the catalog's: each a line naming the file.
    func differences(in catalog: String) throws -> [String] {
        var problems: [String] = []
        for (path, content) in contents.sorted(by: { $0.key < $1.key }) {
            let url = URL(fileURLWithPath: catalog).appendingPathComponent(path)
            guard let committed = try? String(contentsOf: url, encoding: .utf8) else {
                problems.append("missing: \(catalog)/\(path)")
                continue
            }
            if committed != content { problems.append("differs: \(catalog)/\(path)") }
        }
        for path in try leftOver(in: catalog) { problems.append("left over: \(catalog)/\(path)") }
        for (path, _) in try articlesWithStaleText(in: catalog) {
            problems.append(
                "an image's alternative text or a generated text is not what the run shows: \(catalog)/\(path)")
        }
        return problems
    }

    /// Writes the files that differ and removes those left over; returns how many changed.
    func write(into catalog: String) throws -> Int {
        let manager = FileManager.default
        var changed = 0
        for (path, content) in contents.sorted(by: { $0.key < $1.key }) {
            let url = URL(fileURLWithPath: catalog).appendingPathComponent(path)
            if (try? String(contentsOf: url, encoding: .utf8)) == content { continue }
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: url, atomically: true, encoding: .utf8)
            changed += 1
        }
        for path in try leftOver(in: catalog) {
            try manager.removeItem(at: URL(fileURLWithPath: catalog).appendingPathComponent(path))
            changed += 1
        }
        for (path, fixed) in try articlesWithStaleText(in: catalog) {
            try fixed.write(
                to: URL(fileURLWithPath: catalog).appendingPathComponent(path), atomically: true, encoding: .utf8)
            changed += 1
        }
        return changed
    }

    /// The articles and tutorials, outside the generated pages, that show a picture with another
    /// alternative text than the picture's own, or a generated text other than the run's, each
    /// with its text corrected.
    private func articlesWithStaleText(in catalog: String) throws -> [(path: String, fixed: String)] {
        let root = URL(fileURLWithPath: catalog)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var stale: [(String, String)] = []
        for case let path as String in walker
        where (path.hasSuffix(".md") || path.hasSuffix(".tutorial")) && !path.hasPrefix(Self.pageFolder + "/") {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let fixed = articleTexts.applied(to: withCurrentAltTexts(text))
            if fixed != text { stale.append((path, fixed)) }
        }
        return stale.sorted { $0.0 < $1.0 }
    }

    /// `text` with the alternative text of every `![…](marble-…)` and `![…](timeline-…)` image
    /// replaced by its picture's.
    private func withCurrentAltTexts(_ text: String) -> String {
        ["marble-", "timeline-"].reduce(text) { withCurrentAltTexts($0, prefix: $1) }
    }

    /// `text` with the alternative text of every image whose name starts with `prefix` replaced by
    /// its picture's.
    private func withCurrentAltTexts(_ text: String, prefix: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let link = rest.range(of: "](" + prefix) {
            let before = rest[..<link.lowerBound]
            guard let open = before.range(of: "![", options: .backwards),
                let close = rest[link.upperBound...].firstIndex(of: ")")
            else {
                result += rest[..<link.upperBound]
                rest = rest[link.upperBound...]
                continue
            }
            let name = prefix + rest[link.upperBound..<close]
            let alt = altTexts[name] ?? String(rest[open.upperBound..<link.lowerBound])
            result += rest[..<open.upperBound] + alt + "](" + name + ")"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Files in the diagrams' folders that no scenario makes any more.
    private func leftOver(in catalog: String) throws -> [String] {
        var paths: [String] = []
        for folder in [Self.pictureFolder, Self.pageFolder, Self.timelineFolder] {
            let url = URL(fileURLWithPath: catalog).appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            paths += names.sorted().map { "\(folder)/\($0)" }.filter { contents[$0] == nil }
        }
        return paths
    }
}
