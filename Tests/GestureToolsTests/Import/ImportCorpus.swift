import Foundation
import Testing

/// The real fusuma, Touchégg and libinput-gestures configurations in
/// `<package root>/../shared/data/configs`, with what SOURCES.md says of each.
enum ImportCorpus {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Import
        .deletingLastPathComponent()  // GestureToolsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/configs")
        .path

    static let present = FileManager.default.fileExists(atPath: directory + "/SOURCES.md")

    struct Entry: CustomTestStringConvertible, Sendable {
        /// As SOURCES.md names it: `fusuma/01-fusuma-builtin-default.yml`.
        var file: String
        var bindings: Int?
        var testDescription: String { file }
        var path: String { ImportCorpus.directory + "/" + file }
    }

    /// Every file of the table in SOURCES.md, with its binding count where it gives one.
    static let entries: [Entry] = {
        guard let text = try? String(contentsOfFile: directory + "/SOURCES.md", encoding: .utf8) else { return [] }
        var out: [Entry] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 6 else { continue }
            let file = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let count = Int(cells[6].prefix { $0.isNumber })
            out.append(Entry(file: file, bindings: count))
        }
        return out
    }()
}
