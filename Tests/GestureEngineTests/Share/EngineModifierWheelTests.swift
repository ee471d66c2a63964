import Foundation
import Glibc
@testable import GestureEngine
import GestureContext
import GestureCore
import GestureInput
import Testing

/// A keyboard modifier with the wheel through the engine: a keyboard (a FIFO
/// of input_event records, read as the loop reads one) and a shared mouse (a
/// pipe, its clone a recorder). The engine tells the mouse's gate the
/// modifiers it read; the gate withholds the notch the rule claims; the rule
/// runs with g.wheel and g.modifiers.
@Suite("A keyboard modifier with a shared mouse's wheel, through the engine", .serialized)
struct EngineModifierWheelTests {
    static let rules = """
        on({ kind = "chord", wheel = "up" }, function(g)
            emit("zoom_in", { wheel = g.wheel, held = g.modifiers.ctrl and "ctrl" or "none", button = g.button or "none" })
        end, { modifiers = "ctrl" })
        """

    /// A keyboard the engine reads: the test writes key records into a FIFO.
    final class Keyboard {
        let keys = KeyInputs(quietFor: 0, report: { _ in })
        private let writer: Int32
        private let reader: Int32

        init() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-wheel-keys-\(UUID().uuidString.prefix(8))").path
            #expect(mkfifo(path, 0o600) == 0)
            reader = open(path, O_RDONLY | O_NONBLOCK)
            writer = open(path, O_WRONLY)
            try keys.open(path)
        }

        deinit {
            close(writer)
            close(reader)
        }

        /// A key goes down (1) or up (0), stamped long before now, and the loop reads it.
        func key(_ code: UInt16, _ value: Int32, engine: Engine) {
            var bytes: [UInt8] = []
            EvdevEvent(time: 1, type: EV.key, code: code, value: value).appendStampedRecord(to: &bytes)
            EvdevEvent(time: 1, type: EV.syn, code: SYN.report, value: 0).appendStampedRecord(to: &bytes)
            _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            for keyboard in keys.pollable { keys.read(keyboard) }
            // As KeyboardSource.serve does after each read.
            engine.keyboardsRead()
        }
    }

    static func notch(at t: Double, _ value: Int32) -> [EvdevEvent] {
        EngineStrokeTests.packet(at: t, [(EV.rel, REL.wheel, value), (EV.rel, REL.wheelHiRes, value * 120)])
    }

    static func wheel(_ log: CloneLog) -> [Int32] {
        log.all.filter { $0.type == EV.rel && $0.code == REL.wheel }.map(\.value)
    }

    @Test("ctrl held: the notch up is withheld and the rule runs with g.wheel and g.modifiers.ctrl; the notch down, and the notch up without ctrl, reach the desktop")
    func ctrlWheel() throws {
        let run = try EngineStrokeTests.Run(rules: Self.rules)
        let keyboard = try Keyboard()
        run.engine.lanes.keyboards = keyboard.keys

        run.play([Self.notch(at: 100, 1)]) { Self.wheel($0.log) == [1] }
        #expect(Self.wheel(run.log) == [1], "no modifier held: the desktop scrolls")

        keyboard.key(KeyCode.leftCtrl, 1, engine: run.engine)
        run.play([Self.notch(at: 100.1, 1)]) { !$0.actions.isEmpty }
        #expect(run.actions == ["zoom_in"])
        let line = try #require(run.sink.lines.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["wheel"] as? String == "up" && line["held"] as? String == "ctrl" && line["button"] as? String == "none")
        let chord = try #require(run.messages.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["type"] as? String == "chord" })
        #expect(chord["chord"] as? String == "ctrl + wheel up" && chord["outcome"] as? String == "claimed")

        run.play([Self.notch(at: 100.2, -1)]) { Self.wheel($0.log) == [1, -1] }
        #expect(Self.wheel(run.log) == [1, -1], "ctrl + wheel down is no rule's: the desktop zooms out")

        keyboard.key(KeyCode.leftCtrl, 0, engine: run.engine)
        run.play([Self.notch(at: 100.3, 1)]) { Self.wheel($0.log) == [1, -1, 1] }
        #expect(Self.wheel(run.log) == [1, -1, 1])
        #expect(run.actions == ["zoom_in"], "once, for the one notch withheld")
        #expect(!run.log.all.contains { $0.type == EV.key }, "the mouse's clone never gets a key: the keyboard is the desktop's own")
    }

    @Test("with a shared mouse the keys take effect as the keyboard is read (a mouse alone has no touch time for them to wait for), and the gate hears them")
    func modifiersAsRead() throws {
        let keyboard = try Keyboard()
        let run = try EngineStrokeTests.Run(rules: Self.rules)
        run.engine.lanes.keyboards = keyboard.keys
        keyboard.key(KeyCode.rightCtrl, 1, engine: run.engine)
        #expect(keyboard.keys.modifiers == .ctrl, "applied as read: a mouse has no touch time")
        #expect(run.engine.runtime.context.modifiers == .ctrl)
        #expect(keyboard.keys.modifiersAsRead == .ctrl)
        keyboard.key(KeyCode.leftShift, 1, engine: run.engine)
        #expect(keyboard.keys.modifiersAsRead == [.ctrl, .shift])
        run.play([Self.notch(at: 100, 1)]) { Self.wheel($0.log) == [1] }
        #expect(run.actions.isEmpty, "ctrl+shift is not exactly ctrl")
    }

    @Test("mouseSettings binds the modifier wheels whatever the modifiers held now, and not one in another mode")
    func settings() throws {
        let run = try EngineStrokeTests.Run(rules: Self.rules + """

            on({ kind = "chord", wheel = "down" }, function(g) end, { modifiers = "ctrl+alt" })
            on({ kind = "chord", wheel = "left" }, function(g) end, { modifiers = "super", mode = "other" })
            """)
        let wheels = run.engine.mouseSettings(udev: nil, description: EvdevDescription(name: "pipe mouse")).settings.modifierWheels
        #expect(wheels == [ModifierWheel(modifiers: Modifiers.ctrl.rawValue, turn: .up),
                           ModifierWheel(modifiers: Modifiers([.ctrl, .alt]).rawValue, turn: .down)])
    }

    @Test("a stroke rule with { modifiers = \"ctrl\" } on a mouse alone: ctrl held as the stroke is drawn takes it, with g.modifiers.ctrl; without ctrl the general rule does")
    func strokeWithModifiers() throws {
        let run = try EngineStrokeTests.Run(rules: """
            on("right-drag left", function(g) emit("back") end)
            on("right-drag left", function(g) emit("history", { held = g.modifiers.ctrl and "ctrl" or "none" }) end, { modifiers = "ctrl" })
            """)
        let keyboard = try Keyboard()
        run.engine.lanes.keyboards = keyboard.keys
        run.play(EngineStrokeTests.stroke(BTN.right, arms: [(-100, 0)])) { !$0.actions.isEmpty }
        #expect(run.actions == ["back"])
        keyboard.key(KeyCode.leftCtrl, 1, engine: run.engine)
        run.play(EngineStrokeTests.stroke(BTN.right, arms: [(-100, 0)])) { $0.actions.count == 2 }
        #expect(run.actions == ["back", "history"])
        let line = try #require(run.sink.lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(line["held"] as? String == "ctrl")
        keyboard.key(KeyCode.leftCtrl, 0, engine: run.engine)
        run.play(EngineStrokeTests.stroke(BTN.right, arms: [(-100, 0)])) { $0.actions.count == 3 }
        #expect(run.actions == ["back", "history", "back"])
    }
}
