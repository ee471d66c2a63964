#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Nothing a rule presses stays down: not a press made while the rules load,
/// not one a rule's own recognizer made for a touch sequence, not one held
/// when the run is told to stop.
@Suite("Buttons that never stick")
struct StickyButtonTests {
    static let loadMessage = "while the rules load: it would act at every start and every reload, with no gesture to end what it holds down; call it from a handler (on(...)), or from a timer (after(0, function() ... end)) to act once the run has begun"

    static func taps() throws -> URL {
        try Binary.temporaryFile("taps.jsonl", try Binary.run(["synth", "tap", "tap", "--seed", "2"]).stdout)
    }

    /// The left button's values in the dry run's pointer lines, with their times.
    static func leftButton(_ lines: [String]) -> [(value: Int, t: Double)] {
        lines.compactMap(Binary.json).filter { $0["action"] as? String == "pointer" && $0["button"] as? String == "left" }
            .map { (value: $0["value"] as? Int ?? -1, t: $0["t"] as? Double ?? .nan) }
    }

    @Test("key(), pointer.* and touchpad.* while the rules load are refused alike by run and by check, naming the call",
          arguments: [("pointer.press(\"left\")", "pointer.press()"), ("pointer.click()", "pointer.click()"),
                      ("touchpad.begin(3)", "touchpad.begin()"), ("key(\"ctrl+a\")", "key()")])
    func refusedWhileLoading(call: String, name: String) throws {
        let rules = try Binary.temporaryFile("load-time.lua", "\(call)\non(\"tap\", function(g) emit(\"tap\") end)\n")
        let expected = "\(rules.path):1: \(name) \(Self.loadMessage)"
        let checked = try Binary.run(["check", rules.path])
        #expect(checked.status == 1)
        #expect(checked.errorLines.contains(expected), "\(checked.stderr)")
        let run = try Binary.run(["run", "--dry-run", "--rules", rules.path, try Self.taps().path])
        #expect(run.status == 1)
        #expect(run.errorLines.contains(expected), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("a press a rule's own recognizer made goes up when its touch sequence ends, before the next one begins")
    func recognizerPressEndsWithItsTouches() throws {
        let rules = try Binary.temporaryFile("holder.lua", """
            local pressed = false
            recognizer("holder", {
              frame = function(r, f)
                local down = 0
                for _, t in ipairs(f.touches) do if t.phase ~= "ended" and t.phase ~= "cancelled" then down = down + 1 end end
                if down > 0 and not pressed then pressed = true; pointer.press("left") end
                if down == 0 then pressed = false end
              end,
            })
            on("holder", function(g) end)
            on("tap", function(g) emit("tap") end)
            """)
        let run = try Binary.run(["run", "--dry-run", "--rules", rules.path, try Self.taps().path])
        #expect(run.status == 0, "\(run.stderr)")
        let taps = run.lines.compactMap(Binary.json).filter { $0["action"] as? String == "tap" }.compactMap { $0["t"] as? Double }
        let button = Self.leftButton(run.lines)
        // Down as each sequence lands, up at its lift (the tap's time), twice.
        #expect(button.map(\.value) == [1, 0, 1, 0], "\(run.stdout)")
        #expect(taps.count == 2 && button.count == 4 && button[1].t == taps[0] && button[3].t == taps[1], "\(run.stdout)")
    }

    @Test("SIGTERM or SIGINT mid-drag: --dry-run shows the release, then the run dies of the signal", arguments: [SIGTERM, SIGINT])
    func releasedOnStop(signal number: Int32) throws {
        let rules = try Binary.temporaryFile("drag.lua", """
            on("pan", { began = function(g) pointer.press("left"); emit("began") end, ended = function(g) pointer.release("left") end })
            """)
        let pan = try Binary.run(["synth", "pan right", "--seed", "1"]).lines
        let run = try LiveRun(["run", "--dry-run", "--rules", rules.path, "-"])
        // The pan's first 150 lines: it began, and its finger is still down.
        for line in pan.prefix(150) { run.send(line) }
        #expect(run.wait(upTo: 20) { out, _ in out.contains(#""action":"began""#) }, "\(run.stderr)")
        run.signal(number)
        // A second signal would kill it at once: it is given time to stop by itself.
        #expect(run.wait(upTo: 20) { _, _ in !run.process.isRunning })
        let status = run.terminate()
        #expect(run.process.terminationReason == .uncaughtSignal && status == number, "\(status)")
        #expect(Self.leftButton(run.outputLines).map(\.value) == [1, 0], "\(run.stdout)")
    }
}
