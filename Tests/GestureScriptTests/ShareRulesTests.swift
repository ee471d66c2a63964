import Testing
import GestureCore
@testable import GestureScript

@Suite("What the rules say about sharing a device")
struct ShareRulesTests {
    @Test("claim = true marks the rule's gesture as gesturemap's alone; without it, or false, it is not")
    func claimOption() throws {
        let (runtime, _) = try loadWithHost("""
            on("3-finger swipe left", function(g) end, { claim = true })
            on("3-finger swipe right", function(g) end, { claim = false })
            on("tap", function(g) end)
            """)
        #expect(runtime.coreRules.map(\.claims) == [true, false, false])
    }

    @Test("claim must be true or false, and says what it is for")
    func claimErrors() {
        #expect(loadProblems(#"on("tap", function() end, { claim = "yes" })"#) == [
            "rules.lua:1: option \"claim\" must be true or false: true makes the gesture's touches gesturemap's alone on a device shared with the desktop (run --share)",
        ])
    }

    @Test("config{ share = true, claim_fingers = 3 }: true and false set share, numbers set both; out of range is a load error")
    func configKeys() throws {
        let (on, _) = try loadWithHost("config{ share = true, claim_fingers = 3 }")
        #expect(on.thresholds.isOn(.share) && on.thresholds[.claimFingers] == 3)
        let (off, _) = try loadWithHost("config{ share = false }")
        #expect(!off.thresholds.isOn(.share) && off.thresholds[.claimFingers] == 0)
        #expect(loadProblems("config{ share = 2, claim_fingers = 11 }") == [
            "rules.lua:1: config key \"claim_fingers\" must be between 0 and 10 fingers, not 11",
            "rules.lua:1: config key \"share\" is on or off: true or false (or 1 or 0), not 2",
        ])
        // Anything between is neither: refused, where it used to share from 0.5 up.
        #expect(loadProblems("config{ share = 0.7 }") == ["rules.lua:1: config key \"share\" is on or off: true or false (or 1 or 0), not 0.7"])
        // A threshold is not a switch: true is still refused there.
        #expect(loadProblems("config{ tap_interval = true }") == ["rules.lua:1: config key \"tap_interval\" must be a number"])
    }
}
