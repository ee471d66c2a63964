import Foundation
import Testing

@Suite("Mouse stroke rules and their config keys, through the binary")
struct MouseStrokeRuleTests {
    static let hostile = """
    on({ kind = "stroke", direction = "left-left" }, function(g) end)
    on({ kind = "stroke", direction = "sideways" }, function(g) end)
    on({ kind = "stroke", direction = "left-up-right-down-left" }, function(g) end)
    on({ kind = "stroke", button = "thumb" }, function(g) end)
    on({ kind = "stroke", button = 3 }, function(g) end)
    on({ kind = "swipe", button = "right" }, function(g) end)
    on({ kind = "stroke", fingers = 2 }, function(g) end)
    config{ stroke_button = "thumb" }
    config{ stroke_button = 2 }
    config{ mouse_dpi = 800.5 }
    config{ mouse_dpi = -1 }
    config{ share_mice = 2 }

    """

    static func expected(_ p: String) -> [String] {
        let example = "such as \"left\", \"left-up\" (an L drawn left, then up) or \"up,left\" (an L drawn up, then left)"
        let buttons = "\"left\", \"right\", \"middle\", \"side\" or \"extra\""
        return [
            "\(p):1: \"left-left\" goes left twice in a row, which is one arm; write \"left\" once there",
            "\(p):2: \"sideways\" is no direction; a stroke goes left, right, up, down, up-left, up-right, down-left or down-right, one after another, \(example)",
            "\(p):3: \"left-up-right-down-left\" has 5 arms; a stroke has at most 4",
            "\(p):4: unknown button \"thumb\"; a stroke is made with one of left, right, middle, side, extra",
            "\(p):5: \"button\" must be a string: left, right, middle, side, extra",
            "\(p):6: \"button\" belongs to kinds \"stroke\", \"chord\", \"shape\" (drawn with a mouse) and \"click\" (a mouse button's), not \"swipe\"",
            "\(p):7: a stroke is drawn with the mouse; remove \"fingers\"",
            "\(p):8: config key \"stroke_button\" must be one of \(buttons), not \"thumb\"",
            "\(p):9: config key \"stroke_button\" must be one of \(buttons), such as stroke_button = \"right\"",
            "\(p):10: config key \"mouse_dpi\" must be a whole number, not 800.5",
            "\(p):11: config key \"mouse_dpi\" must be between 0 and 100000 dpi (0: udev's MOUSE_DPI, else 1000), not -1",
            "\(p):12: config key \"share_mice\" is on or off: true or false (or 1 or 0), not 2",
        ]
    }

    @Test("check takes strokes of 4 and 8 directions, sequences, a button and the mouse's config keys")
    func checkAccepts() throws {
        let rules = try Binary.temporaryFile("mouse.lua", """
        config{ stroke_button = "middle", share_mice = true, mouse_dpi = 800 }
        on({ kind = "stroke", button = "right", direction = "left" }, function(g) key("alt+Left") end)
        on({ kind = "stroke", direction = "left-up" }, function(g) end)
        on({ kind = "stroke", direction = "up,left" }, function(g) end)
        on({ kind = "stroke", direction = "up-left" }, function(g) end)
        on({ kind = "stroke" }, function(g) end)

        """)
        let result = try Binary.run(["check", rules.path])
        #expect(result.errorLines == ["\(rules.path): ok"])
        #expect(result.status == 0)
    }

    @Test("check names every hostile stroke rule and mouse config value at its line, and exits 1")
    func checkRefuses() throws {
        let rules = try Binary.temporaryFile("hostile-mouse.lua", Self.hostile)
        let result = try Binary.run(["check", rules.path])
        #expect(result.status == 1)
        #expect(result.errorLines == Self.expected(rules.path))
    }

    @Test("run refuses the same rules with the same words, before it reads any input")
    func runRefuses() throws {
        let rules = try Binary.temporaryFile("hostile-mouse.lua", Self.hostile)
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data())
        #expect(result.status == 1)
        #expect(result.errorLines == Self.expected(rules.path))
        #expect(result.lines.isEmpty)
    }

    @Test("--share-mouse with --grab is a usage error that says why, in either order")
    func grabConflict() throws {
        let message = "gesturemap run: --share-mouse and --grab ask for opposite things: --grab keeps the devices from the desktop, --share-mouse gives the desktop every click but the strokes the rules take; give one of them"
        for arguments in [["run", "--share-mouse", "--grab", "-"], ["run", "--grab", "--share-mouse", "-"]] {
            let result = try Binary.run(arguments, stdin: Data())
            #expect(result.status == 64)
            #expect(result.errorLines.first == message)
        }
    }

    @Test("chords: a rocker and a button with the wheel are taken; hostile chord rules are named at their line")
    func chords() throws {
        let good = try Binary.temporaryFile("chords.lua", """
            on({ kind = "chord", button = "left", press = "right" }, function(g) key("ctrl+shift+t") end)
            on({ kind = "chord", button = "right", wheel = "up" }, function(g) end)

            """)
        let ok = try Binary.run(["check", good.path])
        #expect(ok.errorLines == ["\(good.path): ok"])
        let bad = try Binary.temporaryFile("bad-chords.lua", """
            on({ kind = "chord", press = "right" }, function(g) end)
            on({ kind = "chord", button = "left" }, function(g) end)
            on({ kind = "chord", button = "left", press = "right", wheel = "up" }, function(g) end)
            on({ kind = "chord", button = "left", press = "left" }, function(g) end)
            on({ kind = "chord", button = "left", wheel = "sideways" }, function(g) end)
            on({ kind = "swipe", press = "left" }, function(g) end)

            """)
        let result = try Binary.run(["check", bad.path])
        let p = bad.path
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "\(p):1: a chord needs \"button\", the button held first, such as { kind = \"chord\", button = \"left\", press = \"right\" }",
            "\(p):2: a chord needs one of \"press\" (a second button, a rocker) or \"wheel\" (\"up\", \"down\", \"left\", \"right\")",
            "\(p):3: a chord is a second button or the wheel, not both: keep \"press\" or \"wheel\"",
            "\(p):4: a chord presses a second button; \"press\" is \"left\", the button held",
            "\(p):5: unknown wheel turn \"sideways\"; the wheel turns up, down, left or right",
            "\(p):6: \"press\" belongs to kind \"chord\", not \"swipe\"",
        ])
    }
}
