import Foundation
import Testing

/// Text from outside (a device's name, a rules file's strings) on its way to a
/// terminal through every command that shows it: no control, 8-bit CSI or
/// bidirectional override reaches the terminal as itself; each is written
/// `\u{...}` where it was.
@Suite("Outside text reaching the terminal")
struct TerminalEscapeTests {
    /// An 8-bit CSI (clear the screen), a right-to-left override, an OSC 52
    /// clipboard write and a line separator: Swift's own debugDescription lets
    /// the first two through.
    static let hostile = "a\u{9B}2Jb\u{202E}c\u{1B}]52;c;eA==\u{07}d\u{2028}e"
    static let shown = #"a\u{9B}2Jb\u{202E}c\u{1B}]52;c;eA==\u{7}d\u{2028}e"#

    /// Every scalar of `text` that would act on a terminal (a tab, as Lua's
    /// tracebacks indent, does not).
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
                || [0x2028, 0x2029, 0x061C, 0x200E, 0x200F].contains(s.value)
                || (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// The name as a Lua string literal: every byte as a decimal escape.
    static var luaLiteral: String {
        "\"" + hostile.utf8.map { "\\\($0)" }.joined() + "\""
    }

    @Test("a device named with escapes: explain's heading shows it escaped")
    func deviceNameInExplain() throws {
        var script = TouchPanel.Script()
        script.twoFingerSwipe()
        let events = try String(contentsOfFile: script.file("swipe.evemu"), encoding: .utf8)
            .replacingOccurrences(of: "N: gesturemap kernel-test panel", with: "N: " + Self.hostile)
        let input = try Binary.temporaryFile("hostile-name.evemu", events)
        let rules = try Binary.temporaryFile("rules.lua", #"on("two-finger swipe left", function(g) emit("next") end)"#)
        let result = try Binary.run(["explain", input.path, "--rules", rules.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"sequence 1: "#) && result.stdout.contains(#", on ""# + Self.shown + "\""), "\(result.stdout)")
        #expect(Self.raw(result.stdout + result.stderr).isEmpty, "\(Self.raw(result.stdout + result.stderr))")
    }

    @Test("a rule named with escapes: --trace and explain name it escaped")
    func ruleNameInTrace() throws {
        let rules = try Binary.temporaryFile("named.lua", """
            recognizer("never", {
              frame = function(r, f)
                for _, touch in ipairs(f.touches) do if touch.phase == "ended" then r:deadline(f.t + 0.2) end end
              end,
              timeout = function(r, t) r:fail("never") end,
            })
            on("never", function(g) end, { name = \(Self.luaLiteral) })
            on("tap", function(g) emit("tap") end, { requires_failure_of = \(Self.luaLiteral) })
            """)
        let taps = try Binary.run(["synth", "tap", "--seed", "3"])
        let input = try Binary.temporaryFile("tap.jsonl", taps.stdout)
        let traced = try Binary.run(["run", "--trace", "--rules", rules.path, input.path])
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stderr.contains(": held until rule \"" + Self.shown + "\" fail"), "\(traced.stderr)")
        #expect(Self.raw(traced.stdout + traced.stderr).isEmpty, "\(Self.raw(traced.stderr))")
        let explained = try Binary.run(["explain", input.path, "--rules", rules.path])
        #expect(explained.stdout.contains("rule \"" + Self.shown + "\""), "\(explained.stdout)")
        #expect(Self.raw(explained.stdout + explained.stderr).isEmpty, "\(Self.raw(explained.stdout))")
    }

    @Test("a key or a recognizer named with escapes: the error quotes it escaped")
    func namesInErrors() throws {
        let key = try Binary.temporaryFile("key.lua", """
            on("tap", function(g) key("ctrl+" .. \(Self.luaLiteral)) end)
            """)
        let checked = try Binary.run(["check", key.path])
        let keyed = try Binary.run(["run", "--dry-run", "--rules", key.path], stdin: Data(try Binary.run(["synth", "tap", "--seed", "3"]).stdout.utf8))
        let keyOutput = checked.stderr + checked.stdout + keyed.stderr
        #expect(keyOutput.contains("unknown key \"" + Self.shown + "\""), "\(keyOutput)")
        #expect(Self.raw(keyOutput).isEmpty, "\(Self.raw(keyOutput))")

        let recognizer = try Binary.temporaryFile("recognizer.lua", """
            recognizer(\(Self.luaLiteral), { frame = function(r, f) end })
            """)
        let refused = try Binary.run(["check", recognizer.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("recognizer \"" + Self.shown + "\": a name is a lowercase word"), "\(refused.stderr)")
        #expect(Self.raw(refused.stdout + refused.stderr).isEmpty, "\(Self.raw(refused.stderr))")
    }

    @Test("a reason given to r:fail() with escapes: explain's sequences, its closing summary and --trace show it escaped")
    func failReason() throws {
        let rules = try Binary.temporaryFile("reason.lua", """
            recognizer("picky", { frame = function(r, f) r:fail(\(Self.luaLiteral)) end })
            on("picky", function(g) emit("picky") end)
            """)
        let input = try Binary.temporaryFile("tap.jsonl", #"{"t":1,"ev":"down","id":1,"x":300,"y":300}"# + "\n" + #"{"t":1.05,"ev":"up","id":1}"# + "\n")
        let explained = try Binary.run(["explain", input.path, "--rules", rules.path])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("picky failed at 1.00 s: fail(): " + Self.shown), "\(explained.stdout)")
        #expect(explained.stdout.contains("never fired: picky failed: fail(): " + Self.shown), "\(explained.stdout)")
        #expect(Self.raw(explained.stdout + explained.stderr).isEmpty, "\(Self.raw(explained.stdout))")
        let traced = try Binary.run(["run", "--trace", "--rules", rules.path, input.path])
        #expect(traced.stderr.contains("fail(): " + Self.shown), "\(traced.stderr)")
        #expect(Self.raw(traced.stdout + traced.stderr).isEmpty, "\(Self.raw(traced.stderr))")
    }
}
