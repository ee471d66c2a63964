import Foundation
@testable import GestureEngine
import GestureContext
import GestureCore
import GestureInput
import Testing

/// The engine's side of a shared mouse, with the mouse a pipe and its clone a
/// recorder: the thread hands over a stroke's end, the engine finds the rule,
/// claims the stroke, and runs the handler once the gate has claimed it; a
/// stroke no rule takes is let go to the desktop. Each step is said on --trace.
@Suite("A shared mouse's strokes through the engine and its rules")
struct EngineStrokeTests {
    final class Run {
        let engine: Engine
        let sink = RecordingSink()
        var messages: [String] = []
        let device = PipeDevice(time: 100)
        let log = CloneLog()
        let share: DeviceShare
        let source: Source

        init(rules: String, trace: TraceFormat? = .json) throws {
            var options = RunOptions()
            options.rulesPath = try temporaryFile("rules.lua", rules)
            options.trace = trace
            let console = Console()
            engine = try #require(Engine(options: options, console: console, output: sink))
            try engine.runtime.load(path: try #require(options.rulesPath))
            engine.syncRules()
            source = Source(name: "pipe mouse", path: nil, index: 0, opened: .ended,
                            decoder: engine.deviceDecoder(for: "pipe", description: EvdevDescription(name: "pipe mouse"), index: 0))
            let settings = engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings
            share = try DeviceShare(reading: device, path: "pipe", description: EvdevDescription(name: "pipe mouse"), clone: RecordingClone(log),
                                    node: nil, gate: MouseShareGate(settings: settings))
            #expect(share.start())
            engine.lanes.setShare(share, for: 0)
            console.capture = { [unowned self] in self.messages.append($0) }
        }

        deinit { share.stop() }

        /// Plays packets into the mouse, and hands the engine what the thread
        /// says, as the loop does, until `done` or 10 s.
        func play(_ packets: [[EvdevEvent]], until done: (Run) -> Bool) {
            for p in packets { device.send(p) }
            let deadline = Pipes.now() + 10
            while !done(self) {
                let delivery = share.take()
                engine.shareSaid(delivery.signals, by: source)
                guard !done(self), Pipes.waitReadable(share.wakeDescriptor, until: deadline) else { return }
            }
        }

        var actions: [String] { sink.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) .flatMap { ($0 as? [String: Any])?["action"] as? String }
        } }

        var traced: [[String: Any]] { messages.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["type"] as? String == "stroke" } }
    }

    static let rules = """
        on({ kind = "stroke", direction = "left-up" }, function(g) emit("back", { button = g.button, direction = g.direction, kind = g.kind }) end)
        on({ kind = "stroke", button = "middle", direction = "right" }, function(g) emit("middle_right") end)
        """

    static func packet(at time: Double, _ events: [(UInt16, UInt16, Int32)]) -> [EvdevEvent] {
        (events + [(EV.syn, SYN.report, 0)]).map { EvdevEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
    }

    /// `button` held, then moves of (dx, dy) counts for each arm, 10 packets an arm, then let go.
    static func stroke(_ button: UInt16, arms: [(Int32, Int32)]) -> [[EvdevEvent]] {
        var t = 100.0
        var out = [packet(at: t, [(EV.key, button, 1)])]
        for (dx, dy) in arms {
            for _ in 0..<10 {
                t += 0.008
                out.append(packet(at: t, [(EV.rel, REL.x, dx), (EV.rel, REL.y, dy)].filter { $0.2 != 0 }))
            }
        }
        out.append(packet(at: t + 0.008, [(EV.key, button, 0)]))
        return out
    }

    static func buttons(_ log: CloneLog) -> [String] {
        log.all.filter { $0.type == EV.key }.map { "\(MouseButtonName.of($0.code)) \($0.value)" }
    }

    @Test("an L drawn left then up with the right button: the rule runs with g.kind, g.button and g.direction, after the gate claimed it; the clone saw no button")
    func claimed() throws {
        let run = try Run(rules: Self.rules)
        run.play(Self.stroke(BTN.right, arms: [(-100, 0), (0, -100)])) { !$0.actions.isEmpty }
        #expect(run.actions == ["back"])
        let line = try #require(run.sink.lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["button"] as? String == "right" && line["direction"] as? String == "left-up" && line["kind"] as? String == "stroke")
        #expect(Self.buttons(run.log).isEmpty)
        let traced = run.traced
        #expect(traced.count == 1)
        let said = try #require(traced.first)
        let outcome = said["outcome"] as? String, direction = said["direction"] as? String, button = said["button"] as? String
        #expect(outcome == "claimed" && direction == "left-up" && button == "right")
        let reason = said["reason"] as? String ?? ""
        #expect(reason.hasSuffix(":1 takes it: the desktop sees no button"), "\(reason)")
        #expect(run.engine.gesturesDelivered == 1)
    }

    @Test("a stroke no rule names is let go: the clone gets the press, the motion and the release; no handler runs, and the trace says why")
    func released() throws {
        let run = try Run(rules: Self.rules)
        // Left, as left-up begins, then down: no rule names it, which only its end shows.
        run.play(Self.stroke(BTN.right, arms: [(-100, 0), (0, 100)])) { !$0.traced.isEmpty }
        #expect(run.log.wait { Self.buttons($0) == ["right 1", "right 0"] }, "\(Self.buttons(run.log))")
        #expect(run.actions.isEmpty)
        let said = try #require(run.traced.first)
        let outcome = said["outcome"] as? String, reason = said["reason"] as? String
        #expect(outcome == "released")
        #expect(reason == "no rule takes it: the desktop gets the press and the drag")
    }

    @Test("a rule's button: the middle button's stroke right goes to its rule, and the right button's stroke right to none")
    func buttonsOfRules() throws {
        let run = try Run(rules: Self.rules)
        run.play(Self.stroke(BTN.middle, arms: [(100, 0)])) { !$0.actions.isEmpty }
        #expect(run.actions == ["middle_right"])
        #expect(Self.buttons(run.log).isEmpty)
        run.play(Self.stroke(BTN.right, arms: [(100, 0)])) { $0.traced.count == 2 }
        #expect(run.log.wait { Self.buttons($0) == ["right 1", "right 0"] }, "\(Self.buttons(run.log))")
        #expect(run.traced.last?["outcome"] as? String == "released")
        #expect(run.actions == ["middle_right"])
    }

    @Test("config{ stroke_button = \"middle\" }: a rule naming no button is the middle button's, and the right button passes untouched")
    func strokeButton() throws {
        let run = try Run(rules: "config{ stroke_button = \"middle\" }\n" + Self.rules)
        run.play(Self.stroke(BTN.middle, arms: [(-100, 0), (0, -100)])) { !$0.actions.isEmpty }
        #expect(run.actions == ["back"])
        // No rule binds the right button: nothing is held, and no stroke is handed on.
        run.play(Self.stroke(BTN.right, arms: [(-100, 0), (0, -100)])) { _ in true }
        #expect(run.log.wait { Self.buttons($0) == ["right 1", "right 0"] }, "\(Self.buttons(run.log))")
        #expect(run.traced.count == 1)
        #expect(run.actions == ["back"])
    }

    @Test("a rule's device pattern is matched against the mouse's name: the rule for this mouse takes its stroke, the rule for another does not")
    func devicePattern() throws {
        let run = try Run(rules: """
            on({ kind = "stroke", direction = "left" }, function(g) emit("other") end, { device = "Trackball" })
            on({ kind = "stroke", direction = "right" }, function(g) emit("this") end, { device = "^pipe" })
            """)
        run.play(Self.stroke(BTN.right, arms: [(100, 0)])) { !$0.actions.isEmpty }
        #expect(run.actions == ["this"])
        run.play(Self.stroke(BTN.right, arms: [(-100, 0)])) { $0.traced.count == 2 }
        #expect(run.traced.last?["outcome"] as? String == "released")
        #expect(run.actions == ["this"])
    }

    static let chordRules = """
        on({ kind = "chord", button = "left", press = "right" }, function(g) emit("rocker", { button = g.button, press = g.press, kind = g.kind }) end)
        on({ kind = "chord", button = "right", wheel = "down" }, function(g) emit("wheel", { wheel = g.wheel }) end)
        """

    @Test("a rocker (hold left, click right) runs its rule, and the desktop sees neither button")
    func rocker() throws {
        let run = try Run(rules: Self.chordRules)
        let packets = [Self.packet(at: 100, [(EV.key, BTN.left, 1)]), Self.packet(at: 100.1, [(EV.key, BTN.right, 1)]),
                       Self.packet(at: 100.15, [(EV.key, BTN.right, 0)]), Self.packet(at: 100.2, [(EV.key, BTN.left, 0)])]
        run.play(packets) { !$0.actions.isEmpty }
        #expect(run.actions == ["rocker"])
        let line = try #require(run.sink.lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["button"] as? String == "left" && line["press"] as? String == "right" && line["kind"] as? String == "chord")
        // A left click alone still reaches the desktop, at its release.
        run.play([Self.packet(at: 101, [(EV.key, BTN.left, 1)]), Self.packet(at: 101.08, [(EV.key, BTN.left, 0)])]) { _ in true }
        #expect(run.log.wait { Self.buttons($0) == ["left 1", "left 0"] }, "\(Self.buttons(run.log))")
        #expect(run.actions == ["rocker"])
    }

    @Test("right held and the wheel turned down twice: the rule runs for each notch; the desktop sees no right button and no wheel")
    func wheel() throws {
        let run = try Run(rules: Self.chordRules)
        let packets = [Self.packet(at: 100, [(EV.key, BTN.right, 1)]), Self.packet(at: 100.1, [(EV.rel, REL.wheel, -1)]),
                       Self.packet(at: 100.2, [(EV.rel, REL.wheel, -1)]), Self.packet(at: 100.3, [(EV.key, BTN.right, 0)])]
        run.play(packets) { $0.actions.count == 2 }
        #expect(run.actions == ["wheel", "wheel"])
        run.play([Self.packet(at: 101, [(EV.rel, REL.x, 4)])]) { _ in true }
        #expect(run.log.wait { $0.all.contains { $0.type == EV.rel && $0.code == REL.x } })
        #expect(Self.buttons(run.log).isEmpty)
        #expect(!run.log.all.contains { $0.type == EV.rel && $0.code == REL.wheel })
    }

    @Test("per application: the same stroke runs the focused application's rule, and the general one elsewhere")
    func perApplication() throws {
        let run = try Run(rules: """
            on({ kind = "stroke", direction = "left" }, function(g) emit("general") end)
            on({ kind = "stroke", direction = "left" }, function(g) emit("reader") end, { app = "zathura" })
            """)
        run.engine.runtime.setApp(AppInfo(id: "org.pwmt.zathura"))
        run.play(Self.stroke(BTN.right, arms: [(-100, 0)])) { !$0.actions.isEmpty }
        run.engine.runtime.setApp(AppInfo(id: "firefox"))
        run.play(Self.stroke(BTN.right, arms: [(-100, 0)])) { $0.actions.count == 2 }
        #expect(run.actions == ["reader", "general"])
    }

    static let shapeRules = """
        on({ kind = "stroke", direction = "left" }, function(g) emit("back") end)
        on({ kind = "shape", button = "right", name = "circle" }, function(g) emit("menu", { shape = g.shape, button = g.button, kind = g.kind, score = g.score }) end)
        on({ kind = "shape", name = "circle" }, function(g) emit("finger_circle") end)
        """

    /// `button` held while the mouse draws a circle of `radius` counts from its
    /// top, anticlockwise on the screen, the last few degrees past the start.
    static func circle(_ button: UInt16, radius: Double = 600) -> [[EvdevEvent]] {
        var t = 100.0
        var out = [packet(at: t, [(EV.key, button, 1)])]
        var sentX: Int32 = 0, sentY: Int32 = 0
        for i in 1...40 {
            let a = -Double.pi / 2 - 2 * Double.pi * 1.05 * Double(i) / 40
            // Counts from the press, at the circle's top.
            let x = Int32((radius * cos(a)).rounded()), y = Int32((radius * sin(a) + radius).rounded())
            t += 0.008
            out.append(packet(at: t, [(EV.rel, REL.x, x - sentX), (EV.rel, REL.y, y - sentY)].filter { $0.2 != 0 }))
            sentX = x
            sentY = y
        }
        out.append(packet(at: t + 0.008, [(EV.key, button, 0)]))
        return out
    }

    @Test("a circle drawn with the right button goes to the shape rule that names the button: g.shape, g.button and g.score; the clone saw no button, and the finger's shape rule stays out of it")
    func shapeClaimed() throws {
        let run = try Run(rules: Self.shapeRules)
        run.play(Self.circle(BTN.right)) { !$0.actions.isEmpty }
        #expect(run.actions == ["menu"])
        let line = try #require(run.sink.lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["shape"] as? String == "circle" && line["button"] as? String == "right" && line["kind"] as? String == "shape")
        #expect((line["score"] as? Double ?? 0) >= 0.8)
        #expect(Self.buttons(run.log).isEmpty)
        let said = try #require(run.traced.first)
        let outcome = said["outcome"] as? String, shape = said["shape"] as? String
        #expect(outcome == "claimed" && shape == "circle" && said["direction"] == nil)
        // The stroke rule on the same button still takes its stroke.
        run.play(Self.stroke(BTN.right, arms: [(-100, 0)])) { $0.actions.count == 2 }
        #expect(run.actions == ["menu", "back"])
    }

    @Test("a straight stroke no direction rule names, with a shape rule on the button: let go, and the trace says why it was no shape either")
    func shapeRefused() throws {
        let run = try Run(rules: Self.shapeRules)
        run.play(Self.stroke(BTN.right, arms: [(0, 300)])) { !$0.traced.isEmpty }
        #expect(run.log.wait { Self.buttons($0) == ["right 1", "right 0"] }, "\(Self.buttons(run.log))")
        #expect(run.actions.isEmpty)
        let said = try #require(run.traced.first)
        let outcome = said["outcome"] as? String, reason = said["reason"] as? String
        #expect(outcome == "released")
        #expect(reason == "no rule takes it; no shape: a straight stroke is no shape; the desktop gets the press and the drag", "\(reason ?? "")")
    }

    @Test("a shape rule's button is held as a stroke rule's is: a circle with the middle button goes to the middle button's rule, and a right click passes as it came")
    func shapeButton() throws {
        let run = try Run(rules: """
            on({ kind = "shape", button = "middle" }, function(g) emit("middle_shape", { shape = g.shape }) end)
            """)
        run.play(Self.circle(BTN.middle)) { !$0.actions.isEmpty }
        #expect(run.actions == ["middle_shape"])
        run.play([Self.packet(at: 101, [(EV.key, BTN.right, 1)]), Self.packet(at: 101.08, [(EV.key, BTN.right, 0)])]) { _ in true }
        #expect(run.log.wait { Self.buttons($0) == ["right 1", "right 0"] }, "\(Self.buttons(run.log))")
        #expect(run.traced.count == 1)
    }
}
