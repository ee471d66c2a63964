@testable import GestureEngine
import GestureCore
import GestureInput
import Testing

/// `config{ stroke_threshold, stroke_timeout }` reach a shared mouse's gate:
/// the same small motion is a click under a larger threshold and a stroke
/// under the default one.
@Suite("A shared mouse's stroke threshold and timeout as config keys")
struct EngineStrokeConfigTests {
    static let rule = #"on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)"#

    /// Right pressed, moved 1.5 mm left at 1000 dpi (60 counts in 3 packets), let go.
    static let smallMotion: [[EvdevEvent]] = [EngineStrokeTests.packet(at: 100, [(EV.key, BTN.right, 1)])]
        + (1...3).map { EngineStrokeTests.packet(at: 100 + 0.01 * Double($0), [(EV.rel, REL.x, -20)]) }
        + [EngineStrokeTests.packet(at: 100.05, [(EV.key, BTN.right, 0)])]

    @Test("the gate's settings take the keys, and their defaults are Easystroke's 0.41 mm and 250 ms")
    func settings() throws {
        let defaults = try EngineStrokeTests.Run(rules: Self.rule)
        let before = defaults.engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings
        #expect(before.threshold == 16 * 25.4 / 1000 && before.timeout == 0.25)
        let set = try EngineStrokeTests.Run(rules: "config{ stroke_threshold = 2, stroke_timeout = 0.5 }\n" + Self.rule)
        let after = set.engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings
        #expect(after.threshold == 2 && after.timeout == 0.5)
    }

    @Test("1.5 mm of motion: a stroke (too short, let go as a drag) by default, a click under stroke_threshold = 2")
    func largerThresholdMakesAClick() throws {
        let stroke = try EngineStrokeTests.Run(rules: Self.rule)
        stroke.play(Self.smallMotion) { !$0.traced.isEmpty }
        let said = try #require(stroke.traced.first)
        #expect(said["outcome"] as? String == "released")
        #expect(said["reason"] as? String == "no stroke: it went 1.5 mm; a stroke goes 5.0 mm or more; the desktop gets the press and the drag")

        let click = try EngineStrokeTests.Run(rules: "config{ stroke_threshold = 2 }\n" + Self.rule)
        click.play(Self.smallMotion) { _ in true }
        #expect(click.log.wait { EngineStrokeTests.buttons($0) == ["right 1", "right 0"] }, "\(EngineStrokeTests.buttons(click.log))")
        #expect(click.log.all.filter { $0.type == EV.rel }.map(\.value) == [-20, -20, -20], "the click's little motion, as it came")
        #expect(click.traced.isEmpty, "no stroke began, so none is judged")
    }
}
