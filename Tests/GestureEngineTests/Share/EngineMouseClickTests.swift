import Foundation
@testable import GestureEngine
import GestureContext
import GestureCore
import GestureInput
import Testing

/// A button's click a rule claims, through the engine and its share thread:
/// the handler runs at the press and the clone sees no button; where the rule
/// is not live (another application), the click is the desktop's.
@Suite("A shared mouse's claimed button clicks through the engine")
struct EngineMouseClickTests {
    typealias Run = EngineStrokeTests.Run

    static func click(_ button: UInt16, at t: Double) -> [[EvdevEvent]] {
        [EngineStrokeTests.packet(at: t, [(EV.msc, 4, 0x90004), (EV.key, button, 1)]), EngineStrokeTests.packet(at: t + 0.08, [(EV.msc, 4, 0x90004), (EV.key, button, 0)])]
    }

    @Test("a side click runs its rule with g.kind and g.button, and the clone sees no button; the extra button beside it passes")
    func claimed() throws {
        let run = try Run(rules: #"on({ kind = "click", button = "side" }, function(g) emit("side", { kind = g.kind, button = g.button }) end)"#)
        run.play(Self.click(BTN.side, at: 100)) { !$0.actions.isEmpty }
        #expect(run.actions == ["side"])
        let line = try #require(run.sink.lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["kind"] as? String == "click" && line["button"] as? String == "side")
        run.play(Self.click(BTN.extra, at: 101)) { _ in true }
        #expect(run.log.wait { EngineStrokeTests.buttons($0) == ["extra 1", "extra 0"] }, "\(EngineStrokeTests.buttons(run.log))")
        #expect(run.actions == ["side"])
        #expect(run.traced.isEmpty, "no stroke was said")
    }

    @Test("a side click rule for one application: taken while it is focused; elsewhere the desktop gets the click, as Easystroke passes a button its list does not bind")
    func perApplication() throws {
        let run = try Run(rules: #"on({ kind = "click", button = "side" }, function(g) emit("reader") end, { app = "zathura" })"#)
        run.engine.runtime.setApp(AppInfo(id: "org.pwmt.zathura"))
        run.engine.syncRules()
        run.play(Self.click(BTN.side, at: 100)) { !$0.actions.isEmpty }
        #expect(run.actions == ["reader"])
        run.engine.runtime.setApp(AppInfo(id: "firefox"))
        run.engine.syncRules()
        run.play(Self.click(BTN.side, at: 101)) { _ in true }
        #expect(run.log.wait { EngineStrokeTests.buttons($0) == ["side 1", "side 0"] }, "\(EngineStrokeTests.buttons(run.log))")
        #expect(run.actions == ["reader"])
    }
}
