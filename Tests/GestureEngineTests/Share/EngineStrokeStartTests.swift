@testable import GestureEngine
import GestureCore
import GestureInput
import Testing

/// A drag whose start no stroke rule has, through the engine: the rules'
/// first arms reach the gate, and the drag reaches the clone while the
/// button is still down, said on --trace.
@Suite("A shared mouse's drag let go once its start is no rule's, through the engine")
struct EngineStrokeStartTests {
    static let rules = """
        on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)
        on({ kind = "stroke", direction = "right-up" }, function(g) emit("forward") end)
        """

    /// Right pressed, then 40 packets of 0.2 mm down, not let go.
    static let dragDown = [EngineStrokeTests.packet(at: 100, [(EV.key, BTN.right, 1)])]
        + (1...40).map { EngineStrokeTests.packet(at: 100 + 0.008 * Double($0), [(EV.rel, REL.y, 8)]) }

    @Test("the gate's settings carry each button's first arms; a rule of any direction for the button drops them")
    func settings() throws {
        let run = try EngineStrokeTests.Run(rules: Self.rules)
        let starts = run.engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings.strokeStarts
        #expect(starts == [BTN.right: StrokeStart(arms: [.left, .right], eightWay: false)])
        let any = try EngineStrokeTests.Run(rules: Self.rules + "\non({ kind = \"stroke\" }, function(g) end)")
        #expect(any.engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings.strokeStarts.isEmpty)
    }

    @Test("a right drag straight down: the clone gets the press while the button is still down, no rule runs, and the trace says why")
    func letGo() throws {
        let run = try EngineStrokeTests.Run(rules: Self.rules)
        run.play(Self.dragDown) { !$0.traced.isEmpty }
        #expect(run.log.wait { EngineStrokeTests.buttons($0) == ["right 1"] }, "\(EngineStrokeTests.buttons(run.log))")
        #expect(run.log.wait { $0.all.filter { $0.type == EV.rel && $0.code == REL.y }.count == 40 }, "then live")
        let said = try #require(run.traced.first)
        #expect(said["outcome"] as? String == "released")
        #expect(said["reason"] as? String == "its first arm goes down, and no rule for the right button starts so: the desktop gets the press and the drag at once")
        #expect(run.actions.isEmpty)
    }
}
