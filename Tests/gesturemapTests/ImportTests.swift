import Foundation
import Testing
import GestureActions
import GestureTools

/// The real configurations in `<package root>/../shared/data/configs` (SOURCES.md).
private enum Configs {
    static let directory = Binary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/configs").path
    static let present = FileManager.default.fileExists(atPath: directory + "/SOURCES.md")
    static let files: [String] = ["fusuma", "touchegg", "libinput-gestures"].flatMap { tool in
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + tool)) ?? []).sorted().map { tool + "/" + $0 }
    }
    static let broken = "touchegg/04-malformed-root-gnome-shell.conf"
}

@Suite("gesturemap import, end to end", .enabled(if: Configs.present, "needs ../shared/data/configs beside the package"))
struct ImportTests {
    @Test("every configuration imports, and its rules pass check", arguments: Configs.files)
    func importsAndChecks(_ file: String) throws {
        let imported = try Binary.run(["import", Configs.directory + "/" + file])
        if file == Configs.broken {
            #expect(imported.status == 65)
            #expect(imported.errorLines.first == Configs.directory + "/" + file + ":1: XML: Start tag expected, '<' not found; Touchégg refuses the file: fix the XML here")
            return
        }
        #expect(imported.status == 0, "\(imported.stderr)")
        let rules = try Binary.temporaryFile("imported.lua", imported.stdout)
        let checked = try Binary.run(["check", rules.path])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// Each live binding's gesture, synthesized and run through the imported
    /// rules with --dry-run, does the binding's action.
    @Test("the imported rules act out each binding", arguments: Configs.files.filter { $0 != Configs.broken })
    func bindingsFire(_ file: String) throws {
        let path = Configs.directory + "/" + file
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let result = try ConfigImporter.read(bytes, name: file, format: nil).get()
        let rules = try Binary.temporaryFile("imported.lua", LuaRulesWriter.write(result, sourceName: file))
        var tried = 0
        var missed: [String] = []
        for binding in result.bindings where Self.canActOut(binding) {
            tried += 1
            let phrase = Self.synthPhrase(binding, among: result.bindings)
            let synth = try Binary.run(["synth", phrase])
            var arguments = ["run", "--rules", rules.path, "--dry-run", "--no-keyboards"]
            arguments += binding.app.map { ["--app", $0] } ?? ["--app-source", "none"]
            let run = try Binary.run(arguments, stdin: Data(synth.stdout.utf8))
            if !Self.output(run.lines, shows: binding.action) {
                missed.append("\(file):\(binding.line) \(phrase): \(run.lines.prefix(4))")
            }
        }
        // For the record: the figures the report gives.
        print("import: \(file): \(tried - missed.count) of \(tried) bindings acted out")
        // The tools' own defaults are acted out whole; in people's files a gesture may be
        // taken by a rule they wrote for it too (Touchégg's ALL, fusuma's any-count pinch).
        if file.contains("/01-") {
            #expect(missed.isEmpty, "\(missed)")
        } else {
            #expect(missed.count * 5 <= tried, "\(missed)")
        }
    }

    static func canActOut(_ b: ImportedBinding) -> Bool {
        // Held keys would need a keyboard; a cancelled phase needs a gesture that fails.
        b.isLive && b.modifiers == nil && b.phase != .cancelled
    }

    /// The binding's gesture for `synth`: a finger count it does not give is one no
    /// other rule of that gesture names.
    static func synthPhrase(_ b: ImportedBinding, among all: [ImportedBinding]) -> String {
        var concrete = b
        if b.fingers == nil {
            let taken = Set(all.filter { $0.kind == b.kind && $0.direction == b.direction && $0.isLive }.compactMap(\.fingers))
            concrete.fingers = [3, 4, 2, 5].first { !taken.contains($0) } ?? 3
        }
        if concrete.kind == .pan && concrete.direction == nil { concrete.direction = "right" }
        return LuaRulesWriter.phrase(concrete)
    }

    /// Whether the dry run's JSON lines show the action: its program's argv, or its keys pressed and released in order.
    static func output(_ lines: [String], shows action: ImportedAction) -> Bool {
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        switch action {
        case .shell(let line):
            return objects.contains { ($0["argv"] as? [String]) == ["/bin/sh", "-c", line] }
        case .exec(let argv):
            return objects.contains { ($0["argv"] as? [String]) == argv }
        case .keys(let combos):
            let pressed = objects.filter { $0["action"] as? String == "key" }.map { "\($0["key"] ?? "")=\($0["value"] ?? "")" }
            var expected: [String] = []
            for combo in combos {
                guard case .success(let keys) = KeyCombo.parse(combo) else { return false }
                expected += keys.keys.map { "\($0.name)=1" } + keys.keys.reversed().map { "\($0.name)=0" }
            }
            guard pressed.count >= expected.count else { return false }
            return (0...(pressed.count - expected.count)).contains { Array(pressed[$0..<($0 + expected.count)]) == expected }
        case .unsupported:
            return false
        }
    }

}
