#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Held keys, quiet while typing and a fixed application through `gesturemap
/// run`: keyboards come from files and FIFOs of `struct input_event` records
/// (`--keyboard`), read through the same path as a keyboard's device node.
@Suite("The gesture's context, end to end", .serialized)
struct ContextRunTests {
    static let ctrl: UInt16 = 29, shift: UInt16 = 42, a: UInt16 = 30

    /// One key event and its SYN_REPORT, as a keyboard's node gives them (64-bit layout).
    static func key(_ t: Double, _ code: UInt16, _ value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        for (type, code, value) in [(UInt16(1), code, value), (UInt16(0), UInt16(0), Int32(0))] {
            let seconds = Int64(t.rounded(.down))
            append(seconds)
            append(Int64(((t - Double(seconds)) * 1e6).rounded()))
            append(type)
            append(code)
            append(value)
        }
        return bytes
    }

    static func keyboardFile(_ events: [UInt8]) throws -> String {
        let url = try Binary.temporaryFile("keyboard.bin", "")
        try Data(events).write(to: url)
        return url.path
    }

    /// `synth PHRASE` once, then copies `offsets` seconds later, as one NDJSON
    /// input (with the device header unless `header` is false).
    static func gestures(_ phrase: String, at offsets: [Double], header: Bool = true) throws -> String {
        let synth = try Binary.run(["synth", phrase, "--seed", "1"])
        var out = ""
        for (k, offset) in offsets.enumerated() {
            for line in synth.lines {
                guard var object = Binary.json(line) else { continue }
                if let t = object["t"] as? Double {
                    object["t"] = ((t + offset) * 1e6).rounded() / 1e6
                } else if k > 0 || !header {
                    continue
                }
                out += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
            }
        }
        return out
    }

    static let modifierRules = """
    on("two-finger swipe left", function(g)
      local held = {}
      for name in pairs(g.modifiers) do held[#held + 1] = name end
      table.sort(held)
      emit("plain", { held = table.concat(held, "+") })
    end)
    on("two-finger swipe left", function(g) emit("ctrl") end, { modifiers = "ctrl" })
    """

    @Test("a keyboard whose time goes back: said once, its events taken in the order they came; two keyboards merge in time order")
    func timeGoesBack() throws {
        let rules = try Binary.temporaryFile("rules.lua", Self.modifierRules)
        // Ctrl down at 5, then events stamped ever earlier: Shift down "at 4", up "at 3", Ctrl up "at 2".
        // Taken in the order they came, all at 5: nothing is held from 5 on.
        var bytes = Self.key(5, Self.ctrl, 1)
        for k in 0..<2000 { bytes += Self.key(4.9 - Double(k) * 0.001, Self.a, k % 2 == 0 ? 1 : 0) }
        bytes += Self.key(4, Self.shift, 1) + Self.key(3, Self.shift, 0) + Self.key(2, Self.ctrl, 0)
        let backwards = try Self.keyboardFile(bytes)
        // A second keyboard in order: Shift held from 15 to 25.
        let other = try Self.keyboardFile(Self.key(15, Self.shift, 1) + Self.key(25, Self.shift, 0))
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.gestures("two-finger swipe left", at: [0, 10, 20, 30]))
        let result = try Binary.run(["run", "--rules", rules.path, "--keyboard", backwards, "--keyboard", other, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            #"{"action":"plain","t":0.277778,"held":""}"#,
            #"{"action":"plain","t":10.277778,"held":""}"#,
            #"{"action":"plain","t":20.277778,"held":"shift"}"#,
            #"{"action":"plain","t":30.277778,"held":""}"#,
        ])
        #expect(result.stderr == "gesturemap: keyboard \(backwards): its time went back; its events are taken in the order they came\n")
    }

    @Test("a modifiers = \"ctrl\" rule fires only while Ctrl is held, and not with Ctrl+Shift")
    func ctrlRule() throws {
        let rules = try Binary.temporaryFile("rules.lua", Self.modifierRules)
        let keyboard = try Self.keyboardFile(Self.key(5, Self.ctrl, 1) + Self.key(15, Self.shift, 1) + Self.key(25, Self.shift, 0)
                                             + Self.key(25.5, Self.ctrl, 0))
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.gestures("two-finger swipe left", at: [0, 10, 20, 30]))
        let result = try Binary.run(["run", "--rules", rules.path, "--keyboard", keyboard, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            #"{"action":"plain","t":0.277778,"held":""}"#,
            #"{"action":"ctrl","t":10.277778}"#,
            #"{"action":"plain","t":20.277778,"held":"ctrl+shift"}"#,
            #"{"action":"plain","t":30.277778,"held":""}"#,
        ])
        #expect(result.stderr == "")
    }

    @Test("a keyboard with far more events than may wait for the touches' time (20,000 key strokes before the first touch): the keys held at each gesture are still right")
    func keyFloodBeforeTouches() throws {
        let rules = try Binary.temporaryFile("rules.lua", Self.modifierRules)
        var bytes: [UInt8] = []
        for k in 0..<20_000 {
            let t = 1 + Double(k) * 0.0001
            bytes += Self.key(t, Self.a, 1) + Self.key(t + 0.00005, Self.a, 0)
        }
        bytes += Self.key(5, Self.ctrl, 1) + Self.key(15, Self.ctrl, 0)
        let keyboard = try Self.keyboardFile(bytes)
        let input = try Binary.temporaryFile("swipes.ndjson", try Self.gestures("two-finger swipe left", at: [10, 20]))
        let result = try Binary.run(["run", "--rules", rules.path, "--keyboard", keyboard, input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            #"{"action":"ctrl","t":10.277778}"#,
            #"{"action":"plain","t":20.277778,"held":""}"#,
        ])
    }

    @Test("a keyboard FIFO is read as its events come, through the run's loop")
    func keyboardFIFO() throws {
        let rules = try Binary.temporaryFile("rules.lua", Self.modifierRules)
        let fifo = rules.deletingLastPathComponent().appendingPathComponent("keyboard").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)
        defer { close(writer) }
        let run = try LiveRun(["run", "--rules", rules.path, "--keyboard", fifo])
        /// Writes key events and waits until gesturemap has read them all.
        func type(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            var left: Int32 = 1
            let deadline = Date().addingTimeInterval(5)
            while left > 0, Date() < deadline {
                guard ioctl(writer, UInt(FIONREAD), &left) == 0 else { break }
                if left > 0 { usleep(10_000) }
            }
        }
        func send(at offset: Double) throws {
            for line in try Self.gestures("two-finger swipe left", at: [offset], header: offset == 0).split(separator: "\n") { run.send(String(line)) }
        }

        type(Self.key(5, Self.ctrl, 1))
        try send(at: 0)
        #expect(run.wait { out, _ in out.contains(#""action":"plain""#) })
        try send(at: 10)
        #expect(run.wait { out, _ in out.contains(#""action":"ctrl""#) })
        type(Self.key(15, Self.ctrl, 0))
        try send(at: 20)
        #expect(run.wait { out, _ in out.components(separatedBy: #""action":"plain""#).count == 3 })
        #expect(run.finish() == 0)
        #expect(run.stdout.split(separator: "\n") == [
            #"{"action":"plain","t":0.277778,"held":""}"#,
            #"{"action":"ctrl","t":10.277778}"#,
            #"{"action":"plain","t":20.277778,"held":""}"#,
        ])
    }

    /// A tap at `t` (touch id `id`): NDJSON lines on a 16 units/mm panel.
    static func tap(_ t: Double, id: Int) -> String {
        "{\"t\":\(t),\"ev\":\"down\",\"id\":\(id),\"x\":1600,\"y\":800}\n{\"t\":\(t + 0.08),\"ev\":\"up\",\"id\":\(id)}\n"
    }

    static let header = #"{"device":{"name":"Synaptics TM3276-022","x":{"min":0,"max":3200,"resolution":16},"y":{"min":0,"max":1600,"resolution":16}}}"# + "\n"

    /// A key typed at 4.9 s (or `keyAt`); taps at 5.0 s (100 ms after it) and 6.9 s (2 s after).
    func typingRun(_ extra: [String], rules: String = #"on("tap", function(g) emit("tap") end)"#, keyAt: Double = 4.9) throws -> Binary.Result {
        let rulesFile = try Binary.temporaryFile("rules.lua", rules)
        let keyboard = try Self.keyboardFile(Self.key(keyAt, Self.a, 1) + Self.key(keyAt + 0.05, Self.a, 0))
        let input = try Binary.temporaryFile("taps.ndjson", Self.header + Self.tap(5.0, id: 1) + Self.tap(6.9, id: 2))
        return try Binary.run(["run", "--rules", rulesFile.path, "--keyboard", keyboard] + extra + [input.path])
    }

    @Test("quiet while typing: a touchpad tap 100 ms after a key press is ignored, one 2 s after is not")
    func typingQuietsTouchpad() throws {
        let result = try typingRun(["--surface", "touchpad"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [#"{"action":"tap","t":6.98}"#])
        let traced = try typingRun(["--surface", "touchpad", "--trace"])
        #expect(traced.errorLines.contains("trace: t=5 touch 1 ignored: it landed on a touchpad while typing (typing_quiet)"))
    }

    @Test("touchscreens are never quiet, and typing_quiet = 0 turns it off")
    func typingSparesTouchscreensAndZero() throws {
        let both = [#"{"action":"tap","t":5.08}"#, #"{"action":"tap","t":6.98}"#]
        #expect(try typingRun([]).lines == both)
        #expect(try typingRun(["--surface", "taps=touchscreen"]).lines == both)
        #expect(try typingRun(["--surface", "touchpad"], rules: #"config{ typing_quiet = 0 }; on("tap", function(g) emit("tap") end)"#).lines == both)
    }

    @Test("a palm that landed while typing stays left out; a finger landing beside it later taps with one finger")
    func restingPalm() throws {
        let rules = try Binary.temporaryFile("rules.lua", #"on("tap", function(g) emit("tap", { fingers = g.fingers }) end); on("2-finger tap", function(g) emit("tap", { fingers = g.fingers }) end)"#)
        let keyboard = try Self.keyboardFile(Self.key(4.9, Self.a, 1) + Self.key(4.95, Self.a, 0))
        let palm = #"{"t":5.0,"ev":"down","id":1,"x":400,"y":1200}"# + "\n"
        let lift = #"{"t":8.0,"ev":"up","id":1}"# + "\n"
        let input = try Binary.temporaryFile("palm.ndjson", Self.header + palm + Self.tap(6.9, id: 2) + lift)
        let result = try Binary.run(["run", "--rules", rules.path, "--keyboard", keyboard, "--surface", "touchpad", input.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [#"{"action":"tap","t":6.98,"fingers":1}"#])
    }

    @Test("typing_quiet lengthens the quiet: at 5 s, a tap 1.95 s after a key is ignored too")
    func longerQuiet() throws {
        // A lone key quiets for 0.4 of typing_quiet: 2 s at 5.
        let result = try typingRun(["--surface", "touchpad"], rules: #"config{ typing_quiet = 5 }; on("tap", function(g) emit("tap") end)"#, keyAt: 4.95)
        #expect(result.status == 0)
        #expect(result.lines == [])
    }

    @Test("--app fixes g.app and the app rules for a replay")
    func fixedApp() throws {
        let rules = try Binary.temporaryFile("rules.lua", """
        on("two-finger swipe left", function(g) emit("general", { app = g.app and g.app.id or "none" }) end)
        on("two-finger swipe left", function(g) emit("J", { app = g.app.id }) end, { app = "zathura" })
        """)
        let input = try Binary.temporaryFile("swipe.ndjson", try Self.gestures("two-finger swipe left", at: [0]))
        #expect(try Binary.run(["run", "--rules", rules.path, "--app", "org.pwmt.zathura", input.path]).lines
            == [#"{"action":"J","t":0.277778,"app":"org.pwmt.zathura"}"#])
        let traced = try Binary.run(["run", "--rules", rules.path, "--app", "foot", "--trace", input.path])
        #expect(traced.lines == [#"{"action":"general","t":0.277778,"app":"foot"}"#])
        #expect(traced.errorLines.first == "trace: focus: foot")
        let usage = try Binary.run(["run", "--app", "foot", "--app-source", "x11", input.path])
        #expect(usage.status == 64)
        #expect(usage.errorLines.first == "gesturemap run: --app fixes the focused application for the whole run; leave out --app-source and --app-command, or --app")
    }

    @Test("gesturemap test takes --app, so per-application rules have golden tests")
    func goldenWithApp() throws {
        let input = try Binary.temporaryFile("swipe.ndjson", try Self.gestures("two-finger swipe left", at: [0]))
        let expected = input.deletingPathExtension().appendingPathExtension("expected")
        try "{\"action\":\"key\",\"t\":0.277778,\"key\":\"KEY_PAGEDOWN\",\"value\":1}\n{\"action\":\"key\",\"t\":0.277778,\"key\":\"KEY_PAGEDOWN\",\"value\":0}\n"
            .write(to: expected, atomically: true, encoding: .utf8)
        let evince = try Binary.run(["test", "examples/reader.lua", input.path, "--app", "org.gnome.Evince"])
        #expect(evince.status == 0, "\(evince.stderr)")
        let zathura = try Binary.run(["test", "examples/reader.lua", input.path, "--app", "org.pwmt.zathura"])
        #expect(zathura.status == 1)
        #expect(zathura.errorLines.last == "0 passed, 1 failed")
    }

    @Test("without a desktop session, one line says why, only when the rules ask for an app")
    func noSourceLine() throws {
        let input = try Binary.temporaryFile("swipe.ndjson", try Self.gestures("two-finger swipe left", at: [0]))
        let perApp = try Binary.temporaryFile("rules.lua", #"on("swipe", function(g) emit("x") end, { app = "firefox" })"#)
        let environment = ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SWAYSOCK": "", "I3SOCK": "", "HYPRLAND_INSTANCE_SIGNATURE": ""]
        let asked = try Binary.run(["run", "--rules", perApp.path, input.path], environment: environment)
        #expect(asked.status == 0)
        #expect(asked.errorLines == ["gesturemap: no app source: no desktop session found: none of WAYLAND_DISPLAY, DISPLAY, SWAYSOCK, I3SOCK or HYPRLAND_INSTANCE_SIGNATURE is set (a system service or a console?); start gesturemap inside the desktop session, or choose one with --app-source NAME or --app-command CMD; g.app is nil"])
        let plain = try Binary.run(["run", input.path], environment: environment)
        #expect(plain.errorLines == [])
        #expect(plain.lines.count == 1)
    }

    @Test("a replay from a file never waits for the app source")
    func replayDoesNotWait() throws {
        let input = try Binary.temporaryFile("swipe.ndjson", try Self.gestures("two-finger swipe left", at: [0]))
        let start = Date()
        let result = try Binary.run(["run", "--app-command", "sleep 30", input.path])
        #expect(result.status == 0)
        #expect(result.lines == [#"{"action":"next_page","t":0.277778,"fingers":2}"#])
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test("README's per-application rules load and do what they say")
    func readmeBlock() throws {
        let readme = try String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(ReadmeTests.block(after: "## Per-application rules", language: "lua", in: readme))
        let rules = try Binary.temporaryFile("rules.lua", block)
        #expect(try Binary.run(["check", rules.path]).errorLines == ["\(rules.path): ok"])
        let input = try Binary.temporaryFile("swipe.ndjson", try Self.gestures("two-finger swipe left", at: [0]))
        func keys(_ extra: [String]) throws -> [String] {
            try Binary.run(["run", "--dry-run", "--rules", rules.path] + extra + [input.path]).lines.compactMap { line in
                guard let json = Binary.json(line) else { return nil }
                return json["action"] as? String == "key" ? "\(json["key"] ?? "")\((json["value"] as? Int) == 1 ? "+" : "-")" : json["action"] as? String
            }
        }
        #expect(try keys(["--app", "org.pwmt.zathura"]) == ["KEY_LEFTSHIFT+", "KEY_J+", "KEY_J-", "KEY_LEFTSHIFT-"])
        #expect(try keys(["--app", "org.kde.okular"]) == ["KEY_PAGEDOWN+", "KEY_PAGEDOWN-"])
        #expect(try keys(["--app", "firefox"]) == ["KEY_LEFTALT+", "KEY_RIGHT+", "KEY_RIGHT-", "KEY_LEFTALT-"])
        #expect(try keys(["--app", "foot"]) == ["next_page"])
        let ctrl = try Self.keyboardFile(Self.key(0.1, Self.ctrl, 1))
        #expect(try keys(["--app", "firefox", "--keyboard", ctrl]) == ["KEY_END+", "KEY_END-"])
    }

    @Test("check warns about an app option that can never match, and fails on a malformed one")
    func checkApp() throws {
        let rules = try Binary.temporaryFile("rules.lua", """
        on("tap", function(g) end, { app = "" })
        on("swipe left", function(g) end, { app = "%" })
        on("swipe right", function(g) end, { modifiers = "ctrl+hyper" })
        """)
        let result = try Binary.run(["check", rules.path])
        #expect(result.status == 1)
        let p = rules.path
        #expect(result.errorLines == [
            "\(p):2: option \"app\" is not a valid Lua pattern: \"%\" (malformed pattern (ends with '%'))",
            "\(p):3: option modifiers \"ctrl+hyper\": \"hyper\" is not a modifier; use ctrl, shift, alt or super, joined with +",
            "\(p):1: warning: an empty app pattern matches no application; name one, as gesturemap apps shows it (such as \"firefox\")",
        ])
    }

    @Test("bad context options are usage errors that say what to give")
    func usage() throws {
        for (args, message) in [
            (["--surface", "tablet"], "gesturemap run: --surface takes touchpad or touchscreen, optionally after DEVICE=, not \"tablet\""),
            (["--app-source", "mir"], "gesturemap run: --app-source takes one of x11, sway, i3, hyprland, wlroots, gnome, kde, command, none, not \"mir\""),
            (["--keyboard", "k.bin", "--no-keyboards"], "gesturemap run: --keyboard names a keyboard to read and --no-keyboards reads none; give one of them"),
        ] {
            let result = try Binary.run(["run"] + args)
            #expect(result.status == 64)
            #expect(result.errorLines.first == message)
        }
        let missing = try Binary.run(["run", "--keyboard", "/nonexistent/kbd", "-"], stdin: Data())
        #expect(missing.status == 66)
        #expect(missing.errorLines == ["gesturemap: --keyboard /nonexistent/kbd: no such file; give a keyboard device or a file of its input_event records"])
    }
}
