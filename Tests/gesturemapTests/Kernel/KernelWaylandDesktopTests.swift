#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `run --share` judged by a real desktop (it runs last of the kernel suites,
/// after the keyboard tests that a busy guest upsets): sway reads the devices through its
/// libinput backend, beside the grabbed original, and a Wayland client
/// (`gesture-client/`) says what it was sent, pointer gestures included, and when.
/// Each gesture is played on a fresh device with sway reading it alone, then on
/// another fresh device shared by gesturemap (libinput's touchpad state carries
/// over from one play to the next).
@Suite("A real desktop (sway 1.7, libinput, a Wayland client) reading the clone", .serialized,
       .enabled(if: KernelGuest.isInside, KernelGuest.reason),
       .enabled(if: SwayDesktop.available, "needs sway, seatd and the built gesture-client (scripts/kernel-test installs and builds them)"))
struct KernelWaylandDesktopTests {
    static let shareExample: String = (try? String(contentsOfFile: Binary.packageRoot.appendingPathComponent("examples/share.lua").path, encoding: .utf8)) ?? ""

    /// What the client was sent of `events`: on a device sway reads alone,
    /// then with the device shared by `rules` (and what gesturemap said on
    /// stderr, and the actions its rules emitted).
    static func played(_ events: String, description: String, rules: String, loaded: Bool = false) throws -> (alone: ClientReading, shared: ClientReading, engine: String, actions: [String]) {
        let desktop = try SwayDesktop()
        // Two busy loops, one for each of the guest's CPUs: latency may grow,
        // what the desktop is sent may not change.
        let load = loaded ? try (0..<2).map { _ in try Child(["/bin/sh", "-c", "while :; do :; done"]) } : []
        // Gone at once: the keyboard tests after this suite read evemu-record's
        // small buffer, which a busy guest overflows.
        defer { for loop in load { loop.signal(SIGKILL); _ = loop.waitForExit(upTo: 5) } }

        let first = try EvemuDevice(description: description)
        guard desktop.waitForInput(named: first.name) else { throw KernelTestError("sway did not take \(first.name)") }
        try desktop.centrePointer()
        var mark = desktop.lines.count
        try first.play(events)
        desktop.settle()
        let alone = desktop.reading(fromLine: mark)
        first.remove()

        let device = try EvemuDevice(description: description)
        let (engine, _) = try KernelShareTests.share(device.node, rules: rules)
        defer { _ = engine.terminate() }
        // The clone has its device's name: sway takes both, and the grabbed one sends nothing.
        guard desktop.waitForInput(named: device.name, count: 2) else { throw KernelTestError("sway did not take the clone of \(device.name): \(engine.stderr)") }
        try desktop.centrePointer()
        mark = desktop.lines.count
        try device.play(events)
        desktop.settle()
        return (alone, desktop.reading(fromLine: mark), engine.stderr, LiveEngine.actions(engine))
    }

    static func say(_ what: String, _ alone: ClientReading, _ shared: ClientReading, loaded: Bool) {
        func gestures(_ reading: ClientReading) -> String {
            reading.gestures.isEmpty ? "none" : reading.gestures.map { String(format: "%d-finger %@ (%d updates, %.0f px%@)", $0.fingers, $0.kind, $0.updates.count, $0.travel, $0.cancelled == true ? ", cancelled" : "") }.joined(separator: ", ")
        }
        KernelGuest.say(String(format: "%@%@: pointer %.0f px in %d motions over %.2f s against %.0f px in %d over %.2f s alone; scroll (%.1f, %.1f) against (%.1f, %.1f); touch motions over %.2f s against %.2f s; gestures %@ against %@",
                               what, loaded ? ", loaded" : "",
                               shared.pointerTravel, shared.motions.count, ClientReading.spread(shared.motions.map(\.time)),
                               alone.pointerTravel, alone.motions.count, ClientReading.spread(alone.motions.map(\.time)),
                               shared.scroll.vertical, shared.scroll.horizontal, alone.scroll.vertical, alone.scroll.horizontal,
                               ClientReading.spread(shared.touchMotionTimes), ClientReading.spread(alone.touchMotionTimes),
                               gestures(shared), gestures(alone)))
        if !shared.unread.isEmpty || !alone.unread.isEmpty {
            KernelGuest.say("lines the reading did not know: \((shared.unread + alone.unread).prefix(5))")
        }
    }

    @Test("examples/share.lua: one finger on a touchpad, 30 mm from its left edge, moves the pointer as far as without gesturemap, over the same time",
          arguments: [false, true])
    func oneFingerOnATouchpad(loaded: Bool) throws {
        var move = TouchPanel.Script(touchpad: true)
        move.land([(x: 30, y: 30)])
        move.move(dx: 30, dy: 10, frames: 60)
        move.lift()
        move.pause(0.5)
        let (alone, shared, engine, _) = try Self.played(try move.file("desktop-move.evemu"), description: try ClickPad.description(), rules: Self.shareExample, loaded: loaded)
        Self.say("share.lua, one finger on the clickpad", alone, shared, loaded: loaded)
        #expect(alone.motions.count >= 30, "the move made no pointer motion on the device alone: \(alone.motions.count)")
        #expect(abs(shared.pointerTravel - alone.pointerTravel) <= 0.10 * alone.pointerTravel, "the pointer went \(shared.pointerTravel) px against \(alone.pointerTravel): \(engine.suffix(1500))")
        // Loaded, evemu-play itself comes late: the drag on the device alone may
        // take longer than its 0.48 s, and the clone is judged against the shorter.
        let (a, b) = (ClientReading.spread(shared.motions.map(\.time)), ClientReading.spread(alone.motions.map(\.time)))
        #expect(a >= 0.7 * min(b, 0.48), "the motion came within \(a) s against \(b) s alone")
    }

    @Test("examples/share.lua: a one-finger touchscreen drag away from the edges reaches the client spread over its length, one touch down and up",
          arguments: [false, true])
    func touchscreenDrag(loaded: Bool) throws {
        var drag = TouchPanel.Script()
        drag.land([(x: 100, y: 60)])
        drag.move(dx: 60, dy: 20, frames: 150, frame: 0.012)
        drag.lift()
        drag.pause(0.5)
        let (alone, shared, _, _) = try Self.played(try drag.file("desktop-drag.evemu"), description: try TouchPanel.description(), rules: Self.shareExample, loaded: loaded)
        Self.say("share.lua, a touchscreen drag of 1.8 s", alone, shared, loaded: loaded)
        #expect(alone.touchDowns == 1 && alone.touchMotionTimes.count >= 100, "sway sent the client \(alone.touchDowns) touches, \(alone.touchMotionTimes.count) motions")
        #expect(shared.touchDowns == 1 && shared.touchUps == 1)
        // The landing hold-back (claim_fingers = 3) sends what came while a third
        // finger could still land as one step: 4 of 150 motions fewer, 7 loaded.
        #expect(Double(shared.touchMotionTimes.count) >= 0.9 * Double(alone.touchMotionTimes.count), "\(shared.touchMotionTimes.count) motions against \(alone.touchMotionTimes.count)")
        let (a, b) = (ClientReading.spread(shared.touchMotionTimes), ClientReading.spread(alone.touchMotionTimes))
        #expect(a >= 0.8 * min(b, 1.8), "the drag reached the client within \(a) s against \(b) s alone")
    }

    @Test("beside claimed 3-finger swipes left and right: a slow 3-finger pan upward on a touchscreen reaches the client spread over at least half its length")
    func slowPanBesideSwipeClaims() throws {
        var pan = TouchPanel.Script()
        pan.land([(x: 120, y: 110), (x: 150, y: 110), (x: 180, y: 110)])
        pan.move(dx: 0, dy: -40, frames: 188)
        pan.lift()
        pan.pause(0.5)
        let rules = """
            on("3-finger swipe left", function(g) emit("left") end, { claim = true })
            on("3-finger swipe right", function(g) emit("right") end, { claim = true })
            """
        let (alone, shared, _, _) = try Self.played(try pan.file("desktop-pan.evemu"), description: try TouchPanel.description(), rules: rules)
        Self.say("a slow 3-finger pan beside swipe claims", alone, shared, loaded: false)
        #expect(shared.touchDowns == 3 && shared.touchUps == 3, "\(shared.touchDowns) down, \(shared.touchUps) up")
        let (a, b) = (ClientReading.spread(shared.touchMotionTimes), ClientReading.spread(alone.touchMotionTimes))
        #expect(a >= 0.5 * b, "the pan reached the client within \(a) s against \(b) s alone")
    }

    /// The real touchpad and touchscreen recordings.
    static let recordings = RealRecording.all.filter { $0.events.contains("/touchpads/") || $0.events.contains("/touchscreens/") }

    @Test("every real touchpad and touchscreen recording, shared with rules that claim nothing, with the guest idle and loaded: the client is sent the same buttons, touches, swipes and pinches, scrolls as far (5%) and the pointer goes as far (10%)",
          .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"), arguments: recordings, [false, true])
    func everyRecording(_ recording: RealRecording, loaded: Bool) throws {
        let (alone, shared, _, _) = try Self.played(recording.events, description: recording.descriptionFile ?? recording.events, rules: KernelShareTests.noClaimRules, loaded: loaded)
        Self.say(recording.testDescription, alone, shared, loaded: loaded)
        #expect(shared.buttons == alone.buttons, "buttons \(shared.buttons) against \(alone.buttons)")
        // Holds are left out: libinput begins one when fingers rest a while, and the landing hold-back moves that by a frame or two.
        let named = { (reading: ClientReading) in reading.gestures.filter { $0.kind != "hold" }.map { "\($0.fingers)-finger \($0.kind)" } }
        #expect(named(shared) == named(alone), "gestures \(named(shared)) against \(named(alone))")
        #expect(shared.touchDowns == alone.touchDowns && shared.touchUps == alone.touchUps, "touches \(shared.touchDowns)/\(shared.touchUps) against \(alone.touchDowns)/\(alone.touchUps)")
        let (a, b) = (hypot(shared.scroll.vertical, shared.scroll.horizontal), hypot(alone.scroll.vertical, alone.scroll.horizontal))
        #expect(abs(a - b) <= 0.05 * b + 0.5, "scrolled \(a) against \(b)")
        #expect(abs(shared.pointerTravel - alone.pointerTravel) <= 0.10 * alone.pointerTravel + 10, "the pointer went \(shared.pointerTravel) px against \(alone.pointerTravel)")
    }

    @Test("the Synaptics two-finger scroll beside examples/share.lua's claims scrolls the client within 5% as far as without gesturemap",
          .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"), arguments: [false, true])
    func scrollBesideShareExample(loaded: Bool) throws {
        let recording = try #require(KernelShareTests.scrollRecordings.first)
        let (alone, shared, _, _) = try Self.played(recording.events, description: recording.descriptionFile ?? recording.events, rules: Self.shareExample, loaded: loaded)
        Self.say("share.lua, the Synaptics scroll", alone, shared, loaded: loaded)
        let (a, b) = (hypot(shared.scroll.vertical, shared.scroll.horizontal), hypot(alone.scroll.vertical, alone.scroll.horizontal))
        #expect(b > 0, "sway sent the client no scroll on the device alone")
        #expect(abs(a - b) <= 0.05 * b, "scrolled \(a) against \(b)")
    }
}
