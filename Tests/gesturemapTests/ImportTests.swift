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
            #expect(imported.errorLines == [Configs.directory + "/" + file + ":155: XML: Start-end tags mismatch; Touchégg refuses the whole file and runs none of it, so nothing is imported live: fix the XML here"])
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
            arguments += binding.apps?.names.last.map { ["--app", $0] } ?? ["--app-source", "none"]
            let run = try Binary.run(arguments, stdin: Data(synth.stdout.utf8))
            if !Self.output(run.lines, shows: binding.action) {
                missed.append("\(file):\(binding.line) \(phrase): \(run.lines.prefix(4))")
            }
        }
        // For the record: the figures the report gives.
        print("import: \(file): \(tried - missed.count) of \(tried) bindings acted out\(missed.isEmpty ? "" : "; not: \(missed)")")
        // A file with live bindings whose every binding was left untried proves nothing.
        let live = result.bindings.filter { b in if case .nothing = b.action { return false } else { return b.isLive } }
        #expect(live.isEmpty || tried > 0, "\(file): \(live.count) live bindings, none acted out")
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
        if case .nothing = b.action { return false }
        return b.isLive && b.modifiers == nil && b.phase != .cancelled
    }

    /// The binding's gesture for `synth`: a finger count it does not give is one no
    /// other rule of that gesture names.
    static func synthPhrase(_ b: ImportedBinding, among all: [ImportedBinding]) -> String {
        var concrete = b
        if b.fingers == nil {
            let taken = Set(all.filter { $0.kind == b.kind && $0.direction == b.direction && $0.isLive }.compactMap(\.fingers))
            concrete.fingers = [3, 4, 2, 5].first { !taken.contains($0) } ?? 3
        }
        // A rule for every direction, its action kept to one: that one.
        if let only = b.onlyWhen { concrete.direction = only }
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
        case .unsupported, .nothing:
            return false
        }
    }

}

@Suite("gesturemap import, odd input")
struct ImportOddInputTests {
    @Test func standardInputAndFormat() throws {
        let yaml = "swipe:\n  3:\n    left:\t\n      command: 'xdotool key alt+Right'\t\n    up:\n      workspace: next\n"
        let r = try Binary.run(["import", "-"], stdin: Data(yaml.utf8))
        #expect(r.status == 0)
        #expect(r.lines.contains("on(\"3-finger swipe left\", function(g) key(\"alt+Right\") end)"))
        #expect(r.lines.contains("-- on(\"3-finger swipe up\", function(g) end)"))
        #expect(r.errorLines == ["stdin:6: warning: swipe: 3: up: workspace: next: written commented out: fusuma-plugin-wmctrl's workspace: next is a window-manager action gesturemap has no equivalent for; run wmctrl or your desktop's command with exec"])
        let forced = try Binary.run(["import", "--format", "libinput-gestures", "-"], stdin: Data("gesture swipe left 3 ls -l\n".utf8))
        #expect(forced.status == 0)
        #expect(forced.lines.contains("on(\"3-finger swipe left\", function(g) exec({ \"ls\", \"-l\" }) end)"))
    }

    @Test func filesThatAreNoConfiguration() throws {
        let empty = try Binary.temporaryFile("empty.conf", "")
        let r1 = try Binary.run(["import", empty.path])
        #expect(r1.status == 65)
        #expect(r1.errorLines == ["\(empty.path): the file is empty: there is nothing to import"])
        let junk = try Binary.temporaryFile("junk.bin", "\u{7f}ELF\u{2}\u{1}\u{1}\u{0}\u{0}garbage")
        let r2 = try Binary.run(["import", junk.path])
        #expect(r2.status == 65)
        #expect(r2.errorLines == ["\(junk.path):1: this is not a text file (it has a NUL byte); give a fusuma config.yml, a touchegg.conf, a libinput-gestures.conf or Easystroke's actions-0.5.6"])
        let prose = try Binary.temporaryFile("notes.txt", "remember the milk\n")
        let r3 = try Binary.run(["import", prose.path])
        #expect(r3.status == 65)
        #expect(r3.errorLines == ["\(prose.path): cannot tell whether this is a fusuma, Touchégg or libinput-gestures configuration or Easystroke's actions file; give --format fusuma, touchegg, libinput-gestures or easystroke"])
    }

    /// libinput-gestures exits at a line it refuses, so nothing of the file runs, there as here.
    @Test func aPartlyBrokenFileImportsNothingLive() throws {
        let conf = try Binary.temporaryFile("libinput-gestures.conf", "gesture swipe left 3 xdotool key alt+Right\ngesture wave up 3 x\ngesture swipe right 3 xdotool key alt+Left\n")
        let r = try Binary.run(["import", conf.path])
        #expect(r.status == 65)
        #expect(r.errorLines.contains("\(conf.path):2: unknown gesture \"wave\"; libinput-gestures knows swipe, pinch, hold and drag"))
        #expect(r.lines.filter { $0.hasPrefix("on(") }.isEmpty)
        #expect(r.lines.filter { $0.hasPrefix("-- on(") }.count == 2)
    }

    @Test func unreadableAndUsage() throws {
        let r1 = try Binary.run(["import", "/nonexistent/touchegg.conf"])
        #expect(r1.status == 66)
        #expect(r1.errorLines == ["gesturemap import: cannot read /nonexistent/touchegg.conf: No such file or directory"])
        let r2 = try Binary.run(["import"])
        #expect(r2.status == 64)
        #expect(r2.errorLines.first == "gesturemap import: give the file to import, as in: gesturemap import ~/.config/fusuma/config.yml > rules.lua")
        let r3 = try Binary.run(["import", "--format", "yaml", "x"])
        #expect(r3.status == 64)
        #expect(r3.errorLines.first == "gesturemap import: --format takes one of fusuma, touchegg, libinput-gestures, easystroke, not \"yaml\"")
        let big = try Binary.temporaryFile("big.yml", String(repeating: "# a comment line, again and again\n", count: 130_000))
        let r4 = try Binary.run(["import", big.path])
        #expect(r4.status == 65)
        #expect(r4.errorLines == ["gesturemap import: \(big.path): larger than 4 MiB; configurations are a few kilobytes: is this the right file?"])
    }

    @Test func deepNestingIsRefusedAtItsLine() throws {
        let deep = "swipe: " + String(repeating: "[", count: 10_000) + "\n"
        let r = try Binary.run(["import", "--format", "fusuma", "-"], stdin: Data(deep.utf8))
        #expect(r.status == 65)
        #expect(r.errorLines.contains("stdin:1: YAML: nested deeper than 256 levels; no configuration nests so deep; fusuma refuses the file and runs none of it, so nothing is imported live: fix the YAML here"))
    }

    @Test func helpIsListed() throws {
        let r = try Binary.run(["import", "--help"])
        #expect(r.status == 0)
        #expect(r.lines.first == "usage: gesturemap import FILE [--format FORMAT] [--fusuma-version N] [--shapes FILE] > rules.lua")
        #expect(try Binary.run(["--help"]).stdout.contains("import FILE"))
    }
}

/// Each tool's own default configuration, binding by binding: the gesture as the tool
/// means it, and the keys it pressed, read back from a dry run.
@Suite("gesturemap import, the tools' own defaults", .enabled(if: Configs.present, "needs ../shared/data/configs beside the package"))
struct ImportDefaultsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var phrase: String
        var app: String?
        var keys: [String]
        var testDescription: String { "\(file): \(phrase)\(app.map { " in \($0)" } ?? "")" }
    }

    static let cases: [Case] = [
        // fusuma's lib/fusuma/config.yml of 2018. Its pinch in meant the fingers spreading then, but
        // import follows current fusuma, whose 3.0 reversed in and out (in: fingers together, as in
        // gesturemap); --fusuma-version 2 reads it the 2018 way (fusumaTwoReadsPinchesReversed).
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "3-finger swipe left", keys: ["KEY_LEFTALT", "KEY_RIGHT"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "3-finger swipe right", keys: ["KEY_LEFTALT", "KEY_LEFT"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "3-finger swipe up", keys: ["KEY_LEFTCTRL", "KEY_T"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "3-finger swipe down", keys: ["KEY_LEFTCTRL", "KEY_W"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger swipe left", keys: ["KEY_LEFTMETA", "KEY_RIGHT"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger swipe right", keys: ["KEY_LEFTMETA", "KEY_LEFT"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger swipe up", keys: ["KEY_LEFTMETA", "KEY_A"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger swipe down", keys: ["KEY_LEFTMETA", "KEY_S"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "2-finger pinch in", keys: ["KEY_LEFTCTRL", "KEY_EQUAL"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "2-finger pinch out", keys: ["KEY_LEFTCTRL", "KEY_MINUS"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger pinch in", keys: ["KEY_LEFTMETA", "KEY_A"]),
        Case(file: "fusuma/01-fusuma-builtin-default.yml", phrase: "4-finger pinch out", keys: ["KEY_LEFTMETA", "KEY_S"]),
        // libinput-gestures.conf: no finger counts, so every count; _internal is commented out.
        Case(file: "libinput-gestures/01-libinput-gestures-builtin-default.conf", phrase: "3-finger swipe left", keys: ["KEY_LEFTALT", "KEY_RIGHT"]),
        Case(file: "libinput-gestures/01-libinput-gestures-builtin-default.conf", phrase: "4-finger swipe right", keys: ["KEY_LEFTALT", "KEY_LEFT"]),
        Case(file: "libinput-gestures/01-libinput-gestures-builtin-default.conf", phrase: "2-finger pinch in", keys: ["KEY_LEFTMETA", "KEY_S"]),
        Case(file: "libinput-gestures/01-libinput-gestures-builtin-default.conf", phrase: "3-finger pinch out", keys: ["KEY_LEFTMETA", "KEY_S"]),
        Case(file: "libinput-gestures/01-libinput-gestures-builtin-default.conf", phrase: "3-finger swipe up", keys: []),
        // Touchégg's installation/touchegg.conf: its window-manager actions are commented out.
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "4-finger swipe right", keys: ["KEY_LEFTMETA", "KEY_S"]),
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "4-finger pinch in", keys: ["KEY_LEFTMETA", "KEY_A"]),
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "2-finger pinch in", app: "Google-chrome", keys: ["KEY_LEFTCTRL", "KEY_KPMINUS"]),
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "2-finger pinch out", app: "Chromium-browser", keys: ["KEY_LEFTCTRL", "KEY_KPPLUS"]),
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "2-finger pinch out", keys: []),
        Case(file: "touchegg/01-touchegg-builtin-default.conf", phrase: "3-finger swipe up", keys: []),
    ]

    @Test("the default's gesture presses its keys", arguments: cases)
    func pressesTheKeys(_ c: Case) throws {
        let imported = try Binary.run(["import", Configs.directory + "/" + c.file])
        let rules = try Binary.temporaryFile("defaults.lua", imported.stdout)
        let synth = try Binary.run(["synth", c.phrase])
        let run = try Binary.run(["run", "--rules", rules.path, "--dry-run", "--no-keyboards"] + (c.app.map { ["--app", $0] } ?? ["--app-source", "none"]),
                                 stdin: Data(synth.stdout.utf8))
        let pressed = run.lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["action"] as? String == "key" else { return nil }
            return "\(object["key"] ?? "")=\(object["value"] ?? "")"
        }
        #expect(pressed == c.keys.map { "\($0)=1" } + c.keys.reversed().map { "\($0)=0" }, "\(run.stdout) \(run.stderr)")
    }
}
