import Foundation
import Testing

/// The GNOME extension ships twice, as an ES module for GNOME 45 and later and
/// in the older format for GNOME 40 to 44 (examples/gnome-extension-legacy),
/// because no one file loads in both. Only GNOME 43 runs here, so the two are
/// kept to one body: the class's methods must be the same text in both.
@Suite("The GNOME extension's two formats")
struct ExtensionFormatsTests {
    /// From the class's `enable() {` to the line that closes the class.
    static func body(_ folder: String) throws -> String {
        let file = ShellWindow.repository.appendingPathComponent("examples/\(folder)/extension.js")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "    enable() {"),
              let end = lines[start...].firstIndex(of: "}") else { return "" }
        return lines[start...end].joined(separator: "\n")
    }

    static func metadata(_ folder: String) throws -> [String: Any] {
        let file = ShellWindow.repository.appendingPathComponent("examples/\(folder)/metadata.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    }

    @Test("the same methods in both, the same uuid, and shell versions that meet without overlapping")
    func sameExtension() throws {
        let modern = try Self.body("gnome-extension"), legacy = try Self.body("gnome-extension-legacy")
        #expect(modern.contains("_sendFocus()"))
        #expect(modern == legacy)
        let (new, old) = (try Self.metadata("gnome-extension"), try Self.metadata("gnome-extension-legacy"))
        #expect(new["uuid"] as? String == GnomeShellSession.uuid)
        #expect(old["uuid"] as? String == GnomeShellSession.uuid)
        let newVersions = (new["shell-version"] as? [String] ?? []).compactMap { Int($0) }
        let oldVersions = (old["shell-version"] as? [String] ?? []).compactMap { Int($0) }
        #expect(oldVersions == Array(40...44))
        #expect(newVersions.min() == 45)
    }
}
