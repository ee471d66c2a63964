#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Real SYN_DROPPEDs: the engine is stopped (SIGSTOP) while more comes in than
/// the kernel keeps for one reader, then goes on. The kernel drops what was
/// queued and says so; libevdev re-reads the device's state.
@Suite("SYN_DROPPED from a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelDropTests {
    static let dropped = "SYN_DROPPED: the device dropped events"

    /// Starts an engine on a new panel with rules for every gesture, and waits until it reads.
    private static func start() throws -> (EvemuDevice, Child) {
        let rules = try Binary.temporaryFile("every.lua", everyGestureRules)
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "--rules", rules.path, device.node])
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        return (device, engine)
    }

    /// Plays `script` while the engine is stopped, then lets it go on, and
    /// waits for its one message about the drop.
    private static func play(_ script: TouchPanel.Script, named name: String, whileStopped engine: Child, into device: EvemuDevice) throws {
        engine.signal(SIGSTOP)
        #expect(KernelGuest.wait(upTo: 10) { KernelGuest.processState(engine.pid).hasPrefix("T") }, "\(KernelGuest.processState(engine.pid))")
        try device.play(script.file(name))
        engine.signal(SIGCONT)
        #expect(engine.wait(upTo: 20) { _, err in err.contains(dropped) }, "\(engine.stderr) \(KernelGuest.processState(engine.pid))")
    }

    /// What must not be said after a resync: the state re-read is not an anomaly.
    private static func expectNoAnomaly(_ engine: Child) {
        #expect(engine.stderr.components(separatedBy: dropped).count == 2, "one message: \(engine.stderr)")
        #expect(!engine.stderr.contains("tracking id changed without a lift"), "\(engine.stderr)")
        #expect(!engine.stderr.contains("already down when the input began"), "\(engine.stderr)")
        #expect(!engine.stderr.contains("without a tracking id"), "\(engine.stderr)")
    }

    /// Three fingers stroking back and forth for 4 s: far more than the kernel keeps.
    private static func flood(_ script: inout TouchPanel.Script, fingers: Int = 3) {
        script.land((0..<fingers).map { (x: 60, y: 40 + 30 * Double($0)) })
        for _ in 0..<10 {
            script.move(dx: 100, dy: 0, frames: 25, frame: 0.008)
            script.move(dx: -100, dy: 0, frames: 25, frame: 0.008)
        }
    }

    @Test("fingers still down after the drop: one message, the state re-read, the fingers ignored until they lift, the next swipes exact")
    func fingersDownThroughTheDrop() throws {
        let (device, engine) = try Self.start()
        defer { _ = engine.terminate() }
        var stroke = TouchPanel.Script()
        Self.flood(&stroke)
        try Self.play(stroke, named: "flood.evemu", whileStopped: engine, into: device)

        // The fingers still down move on and lift: ignored, as their start was lost.
        var rest = stroke.continuing()
        rest.move(dx: 0, dy: 60, frames: 30)
        rest.lift()
        rest.pause(0.5)
        rest.twoFingerSwipe(dx: -60)
        rest.pause(0.5)
        rest.twoFingerSwipe(dx: 0, dy: 50)
        try device.play(rest.file("after-drop.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.split(separator: "\n").count >= 2 }, "\(engine.stdout)\n\(engine.stderr)")
        usleep(1_000_000)
        #expect(LiveEngine.gestures(engine) == ["swipe 2 left", "swipe 2 down"], "\(engine.stdout)\n\(engine.stderr)")
        Self.expectNoAnomaly(engine)
    }

    @Test("a lift lost inside the drop (the fingers lifted, more strokes came, all lifted before the engine went on): no touch stays down; the next swipe and a one-finger tap are exact")
    func liftLostInTheDrop() throws {
        let (device, engine) = try Self.start()
        defer { _ = engine.terminate() }
        // Three fingers stroke and lift; then two land in the same slots with
        // new tracking ids and stroke on long after, so that the three's lift
        // is among what the kernel drops; then they lift too.
        var strokes = TouchPanel.Script()
        Self.flood(&strokes)
        strokes.lift()
        strokes.pause(0.1)
        Self.flood(&strokes, fingers: 2)
        strokes.lift()
        try Self.play(strokes, named: "lifts-lost.evemu", whileStopped: engine, into: device)

        // A touch the engine still thought down would make the swipe three
        // or four fingers, and the tap two or more.
        var next = strokes.continuing()
        next.pause(0.5)
        next.twoFingerSwipe(dx: -60)
        next.pause(0.6)
        next.land([(x: 120, y: 70)])
        next.pause(0.05)
        next.lift()
        try device.play(next.file("after-lost-lift.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.split(separator: "\n").count >= 2 }, "\(engine.stdout)\n\(engine.stderr)")
        usleep(1_000_000)
        #expect(LiveEngine.gestures(engine) == ["swipe 2 left", "tap 1"], "\(engine.stdout)\n\(engine.stderr)")
        Self.expectNoAnomaly(engine)
    }
}
