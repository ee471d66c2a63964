import Foundation
import Testing

@Suite("Keyboard modifiers with the wheel as chord rules, through the binary")
struct ModifierWheelRuleTests {
    @Test("check takes a chord of the wheel with the modifiers option, and refuses one without it, or with none, saying how to write it")
    func check() throws {
        let good = try Binary.temporaryFile("zoom.lua", """
            on({ kind = "chord", wheel = "up" }, function(g) key("ctrl+plus") end, { modifiers = "ctrl" })
            on({ kind = "chord", wheel = "left" }, function(g) end, { modifiers = "ctrl+shift", app = "firefox" })

            """)
        let ok = try Binary.run(["check", good.path])
        #expect(ok.errorLines == ["\(good.path): ok"])
        #expect(ok.status == 0)

        let bad = try Binary.temporaryFile("bad-zoom.lua", """
            on({ kind = "chord", wheel = "up" }, function(g) end)
            on({ kind = "chord", wheel = "down" }, function(g) end, { modifiers = "none" })
            on({ kind = "chord", press = "right" }, function(g) end, { modifiers = "ctrl" })

            """)
        let refused = try Binary.run(["check", bad.path])
        let p = bad.path
        func message(_ turn: String) -> String {
            "a chord of the wheel with no \"button\" is made with keyboard modifiers held: name them in on()'s options, such as on({ kind = \"chord\", wheel = \"\(turn)\" }, f, { modifiers = \"ctrl\" }), or hold a mouse button: { kind = \"chord\", button = \"right\", wheel = \"\(turn)\" }"
        }
        #expect(refused.status == 1)
        #expect(refused.errorLines == [
            "\(p):1: " + message("up"),
            "\(p):2: " + message("down"),
            "\(p):3: a chord needs \"button\", the button held first, such as { kind = \"chord\", button = \"left\", press = \"right\" }",
        ])
    }
}
