import Foundation
import Testing
@testable import GestureTools

@Suite("import reads the real configurations", .enabled(if: ImportCorpus.present, "needs ../shared/data/configs beside the package"))
struct CorpusImportTests {
    @Test func theTableListsEveryFile() {
        #expect(ImportCorpus.entries.count == 69)
        #expect(ImportCorpus.entries.filter { $0.file.hasPrefix("fusuma/") }.count == 25)
        #expect(ImportCorpus.entries.filter { $0.file.hasPrefix("touchegg/") }.count == 21)
        #expect(ImportCorpus.entries.filter { $0.file.hasPrefix("libinput-gestures/") }.count == 23)
    }

    @Test("each file's bindings, as many as SOURCES.md counts", arguments: ImportCorpus.entries)
    func bindingCounts(_ entry: ImportCorpus.Entry) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: entry.path)))
        let expected: ImportFormat = entry.file.hasPrefix("fusuma/") ? .fusuma : entry.file.hasPrefix("touchegg/") ? .touchegg : .libinputGestures
        #expect(ImportFormat.detect(bytes) == expected)
        let result = try ConfigImporter.read(bytes, name: entry.file, format: nil).get()
        if entry.file == "touchegg/04-malformed-root-gnome-shell.conf" {
            // Touchégg refuses this file (its root tag is broken), so nothing of it ever ran.
            #expect(result.bindings.isEmpty)
            #expect(result.diagnostics == [ImportDiagnostic(line: 155, severity: .error, message: "XML: Start-end tags mismatch; Touchégg refuses the whole file and runs none of it, so nothing is imported live: fix the XML here")])
            return
        }
        #expect(!result.hasErrors, "\(result.diagnostics.map { $0.rendered(file: entry.file) })")
        if let count = entry.bindings {
            #expect(result.bindings.reduce(0) { $0 + $1.sourceCount } == count)
        }
    }

    @Test func theSecondRootIsLeftAsTouchéggLeavesIt() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportCorpus.directory + "/touchegg/16-two-roots-duplicates.conf")))
        let result = try ConfigImporter.read(bytes, name: "t.conf", format: nil).get()
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.message == "a second root element begins here; Touchégg reads only the first <touchégg>, and so does import" })
    }

    @Test func anchorsAndMergeKeysReachTheirBindings() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportCorpus.directory + "/fusuma/21-author-anchors-tap-phases.yml")))
        let result = try ConfigImporter.read(bytes, name: "f.yml", format: nil).get()
        // `3: <<: *drag` gives the 3-finger swipe the drag's phases.
        let drag = result.bindings.filter { $0.kind == .pan && $0.fingers == 3 && $0.modifiers == nil }
        #expect(Array(drag.prefix(3).map(\.phase)) == [.began, .changed, .ended])
        #expect(drag.first?.action == .shell("xdotool mousedown 1"))
    }
}
