#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// key() through uinput, read back from the kernel by another reader, as a
/// desktop reads the virtual keyboard. What the keys should be is written here
/// by hand, in the kernel's names, not asked of gesturemap.
@Suite("Keys typed through a real uinput", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelKeyTests {
    /// The kernel's name for each key name the examples use; a letter or a
    /// digit is KEY_ and itself in capitals.
    static let kernelNames: [String: String] = [
        "ctrl": "KEY_LEFTCTRL", "shift": "KEY_LEFTSHIFT", "alt": "KEY_LEFTALT", "super": "KEY_LEFTMETA",
        "PageDown": "KEY_PAGEDOWN", "PageUp": "KEY_PAGEUP", "Home": "KEY_HOME", "End": "KEY_END",
        "Left": "KEY_LEFT", "Right": "KEY_RIGHT", "Up": "KEY_UP", "Down": "KEY_DOWN",
        "Tab": "KEY_TAB", "Escape": "KEY_ESC", "Return": "KEY_ENTER", "space": "KEY_SPACE",
        // X's Menu, the context-menu key, is the kernel's COMPOSE (examples/mouse.lua's circle).
        "Menu": "KEY_COMPOSE",
        // xdotool's spellings, which key() accepts too.
        "Page_Down": "KEY_PAGEDOWN", "Prior": "KEY_PAGEUP", "Next": "KEY_PAGEDOWN",
    ]

    static func kernelName(_ part: Substring) -> String? {
        if let name = kernelNames[String(part)] { return name }
        guard part.count == 1, let c = part.first, c.isASCII, c.isLetter || c.isNumber else { return nil }
        return "KEY_" + part.uppercased()
    }

    /// A combination as the kernel should see it: each key pressed in order,
    /// then released in the reverse order.
    static func expectedEvents(_ combo: String) -> [String]? {
        let names = combo.split(separator: "+").map(kernelName)
        guard !names.isEmpty, names.allSatisfy({ $0 != nil }) else { return nil }
        let keys = names.compactMap { $0 }
        return keys.map { "\($0) 1" } + keys.reversed().map { "\($0) 0" }
    }

    /// Every key combination the examples can type, once each, in their order:
    /// the literal ones (`key("alt+Left")`) and those a rule takes from a table
    /// (`key(program.next)`: every `next = "..."` in the same file).
    static func exampleKeyCombos() throws -> [String] {
        let dir = Binary.packageRoot.appendingPathComponent("examples")
        let literal = try NSRegularExpression(pattern: #"key\(\s*"([^"]+)"\s*\)"#)
        let field = try NSRegularExpression(pattern: #"key\(\s*[A-Za-z_][A-Za-z_0-9]*\.([A-Za-z_][A-Za-z_0-9]*)\s*\)"#)
        var combos: [String] = []
        func add(_ combo: String) { if !combos.contains(combo) { combos.append(combo) } }
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".lua") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let whole = NSRange(text.startIndex..., in: text)
            func captures(_ regex: NSRegularExpression) -> [String] {
                regex.matches(in: text, range: whole).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
            }
            captures(literal).forEach(add)
            for key in Set(captures(field)).sorted() {
                let values = try NSRegularExpression(pattern: "\\b" + key + #"\s*=\s*"([^"]+)""#)
                values.matches(in: text, range: whole).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }.forEach(add)
            }
        }
        return combos
    }

    @Test("key() through uinput, read back by a reader that opened the keyboard as soon as it appeared: every combination the examples use, the first included")
    func keysReadBack() throws {
        let combos = try Self.exampleKeyCombos()
        // browser.lua, presentation.lua, presenter.lua and reader.lua's tables.
        #expect(combos.count >= 12, "\(combos)")
        #expect(combos.contains("shift+j") && combos.contains("ctrl+shift+Tab"), "\(combos)")
        var expected: [String] = []
        // A swipe types the next `perSwipe` combinations: the kernel keeps 64
        // events for each reader of a keyboard, and evemu-record in a guest
        // without KVM, reading them all from one instant, fell behind (SYN_DROPPED).
        let perSwipe = 4
        var counts: [Int] = []
        for (i, combo) in combos.enumerated() {
            let events = Self.expectedEvents(combo)
            #expect(events != nil, "the examples type \"\(combo)\": give its keys' kernel names in KernelKeyTests.kernelNames")
            expected += events ?? []
            if (i + 1) % perSwipe == 0 || i == combos.count - 1 { counts.append(expected.count) }
        }
        let list = combos.map { "\"\($0)\"" }.joined(separator: ", ")
        let rules = try Binary.temporaryFile("keys.lua", """
            local combos = { \(list) }
            local next_combo = 1
            on("2-finger swipe left", function(g)
              for i = next_combo, math.min(next_combo + \(perSwipe - 1), #combos) do key(combos[i]) end
              next_combo = next_combo + \(perSwipe)
            end)

            """)
        let typed = try Self.typeAndReadBack(rules: rules.path, counts: counts)
        #expect(typed == expected, "read back \(typed), meant \(expected)")
    }

    @Test("xdotool's spellings type the keys they name there")
    func xdotoolSpellingsReadBack() throws {
        let rules = try Binary.temporaryFile("xdotool.lua", """
            on("2-finger swipe left", function(g) key("Page_Down"); key("Prior"); key("Next") end)

            """)
        let expected = ["KEY_PAGEDOWN 1", "KEY_PAGEDOWN 0", "KEY_PAGEUP 1", "KEY_PAGEUP 0", "KEY_PAGEDOWN 1", "KEY_PAGEDOWN 0"]
        #expect(try Self.typeAndReadBack(rules: rules.path, counts: [expected.count]) == expected)
    }

    /// Runs the rules on a new panel, opens the virtual keyboard with
    /// evemu-record as soon as it exists (before any gesture), plays a
    /// two-finger swipe left for each of `counts` (the key events the reader
    /// must have seen after it, in all), and returns every key event it saw.
    /// `user`: a setpriv command line to run the engine as.
    static func typeAndReadBack(rules: String, counts: [Int], as user: [String] = []) throws -> [String] {
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", rules, device.node], as: user)
        defer { _ = engine.terminate() }
        var keyboard: String?
        #expect(KernelGuest.wait(upTo: 30) { keyboard = KernelGuest.node(named: "gesturemap virtual keyboard"); return keyboard != nil },
                "no virtual keyboard at start: \(engine.stderr)")
        let node = try #require(keyboard)
        let reader = try Child(["/usr/bin/evemu-record", node])
        defer { _ = reader.terminate() }
        #expect(reader.wait(upTo: 20) { out, _ in out.contains("N: gesturemap virtual keyboard") }, "\(reader.stderr)")
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        let swipe = try LiveEngine.swipe()
        for count in counts {
            try device.play(swipe)
            // Every key the handler types, before the next swipe.
            #expect(KernelGuest.wait(upTo: 20) { LiveEngine.keysRecorded(reader.stdout).count >= count },
                    "\(reader.stdout)\n\(engine.stderr)")
        }
        // A moment for any stray key.
        usleep(300_000)
        return LiveEngine.keysRecorded(reader.stdout)
    }
}
