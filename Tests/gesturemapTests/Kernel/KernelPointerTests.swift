#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `pointer.*` and `touchpad.*` through a real kernel, read back by real
/// libinput (`libinput debug-events` on the virtual device), as a desktop reads it.
@Suite("The virtual pointer and touchpad, judged by real libinput", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelPointerTests {
    static let drag = Binary.packageRoot.appendingPathComponent("examples/three-finger-drag.lua").path

    /// `gesturemap run -v` on `node` with these rules; the virtual devices it made.
    static func start(rules path: String, on node: String, extra: [String] = []) throws -> (engine: Child, pointer: String?, touchpad: String?) {
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", path] + extra + [node])
        guard LiveEngine.waitUntilOpened(node, by: engine) else {
            _ = engine.terminate()
            throw KernelTestError("gesturemap does not read \(node): \(engine.stderr)")
        }
        func made(_ what: String) -> String? {
            engine.stderr.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "made the virtual \(what) ") else { return nil }
                return line[range.upperBound...].split(separator: " ").first.map(String.init)
            }.first
        }
        EvemuDevice.settle()
        return (engine, made("pointer"), made("touchpad"))
    }

    static func rulesFile(_ text: String) throws -> String { try Binary.temporaryFile("pointer-rules.lua", text).path }

    /// libinput's left-button events on the pointer, "pressed"/"released", in order.
    static func leftButton(_ watch: LibinputWatch) -> [String] {
        watch.lines.filter { $0.contains("POINTER_BUTTON") && $0.contains("BTN_LEFT") }.map { $0.contains("released") ? "released" : "pressed" }
    }

    /// Three fingers landing on the test panel and moving (dx, dy) mm together, lifting or not.
    static func threeFingerPan(dx: Double, dy: Double, lift: Bool = true) -> TouchPanel.Script {
        var script = TouchPanel.Script()
        script.land([(x: 120, y: 40), (x: 120, y: 70), (x: 120, y: 100)])
        script.move(dx: dx, dy: dy, frames: 40)
        if lift { script.lift() }
        script.pause(0.2)
        return script
    }

    @Test("examples/three-finger-drag.lua: three fingers panning on a touchscreen are a left-button drag on the virtual pointer, its motion the fingers' times pointer_gain, the button up after the linger",
          arguments: [(40.0, 0.0), (-30.0, 20.0), (0.0, -25.0)])
    func threeFingerDrag(dx: Double, dy: Double) throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        // The example as shipped, and a line that says the pan's whole translation.
        let source = try String(contentsOfFile: Self.drag, encoding: .utf8)
        let release = "pointer.release(\"left\", { after = linger })"
        #expect(source.contains(release))
        let rules = try Self.rulesFile(source.replacingOccurrences(of: release, with: "emit(\"end\", { dx = g.dx, dy = g.dy }); " + release))
        let (engine, pointer, _) = try Self.start(rules: rules, on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(pointer, "no virtual pointer: \(engine.stderr)")
        let desktop = try LibinputWatch(node)
        try device.play(Self.threeFingerPan(dx: dx, dy: dy).file("drag.evemu"))
        desktop.settle(quiet: 1.5)
        #expect(Self.leftButton(desktop) == ["pressed", "released"], "\(desktop.lines)")
        let events = desktop.events
        let firstMotion = events.firstIndex(of: "POINTER_MOTION") ?? 0
        #expect(events.firstIndex(of: "POINTER_BUTTON") ?? .max < firstMotion, "the button went down after the pointer moved: \(events)")
        #expect(events.last == "POINTER_BUTTON", "\(events)")
        // A mouse's unaccelerated deltas are its counts: 15 a millimetre. The panel's
        // 16 units a mm round each finger's position: a unit's worth either way.
        let moved = desktop.reading.motion
        let end = try #require(engine.outputLines.compactMap(Binary.json).first { $0["action"] as? String == "end" }, "\(engine.stdout)")
        let asked = (x: (end["dx"] as? Double ?? .nan) * 15, y: (end["dy"] as? Double ?? .nan) * 15)
        KernelGuest.say(String(format: "three-finger drag: fingers (%.0f, %.0f) mm; the rules asked (%.2f, %.2f) counts; libinput's unaccelerated pointer motion (%.0f, %.0f)", dx, dy, asked.x, asked.y, moved.x, moved.y))
        // Exactly what the rules asked, to the count it rounds to.
        #expect(abs(moved.x - asked.x) <= 0.5 + 1e-6 && abs(moved.y - asked.y) <= 0.5 + 1e-6, "the pointer moved \(moved), the rules asked \(asked): \(desktop.lines)")
        // And the fingers' own travel, to the panel's 16 units a mm.
        #expect(abs(moved.x - dx * 15) <= 2 && abs(moved.y - dy * 15) <= 2, "the pointer moved \(moved), the fingers (\(dx), \(dy)) mm")
        #expect((moved.x > 0) == (dx > 0) || dx == 0)
        #expect((moved.y > 0) == (dy > 0) || dy == 0)
    }

    @Test("scroll and clicks: libinput reads the hi-res wheel in notches as the rule gave them, and balanced right and middle clicks")
    func scrollAndClicks() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let rules = try Self.rulesFile("""
            on("2-finger swipe down", function(g) pointer.scroll(0, 2.5); pointer.scroll(-1, 0) end)
            on("tap", function(g) pointer.click("right"); pointer.click("middle", 2) end)
            """)
        let (engine, pointer, _) = try Self.start(rules: rules, on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(pointer, "no virtual pointer: \(engine.stderr)")
        let desktop = try LibinputWatch(node)
        var script = TouchPanel.Script()
        script.twoFingerSwipe(dx: 0, dy: 60)
        script.pause(0.5)
        script.land([(x: 100, y: 70)])
        script.lift(frame: 0.05)
        script.pause(0.6)
        try device.play(script.file("scroll.evemu"))
        desktop.settle()
        var vertical = 0.0, horizontal = 0.0
        for line in desktop.lines where line.contains("POINTER_SCROLL_WHEEL") {
            vertical += Self.v120(line, "vert")
            horizontal += Self.v120(line, "horiz")
        }
        #expect(vertical == 300 && horizontal == -120, "\(desktop.lines)")
        let buttons = desktop.lines.filter { $0.contains("POINTER_BUTTON") }.map { ($0.contains("BTN_RIGHT") ? "right " : $0.contains("BTN_MIDDLE") ? "middle " : "? ") + ($0.contains("released") ? "up" : "down") }
        #expect(buttons == ["right down", "right up", "middle down", "middle up", "middle down", "middle up"], "\(desktop.lines)")
    }

    @Test("forty triple clicks at one tap hold nothing up: the next gesture is acted on at once, and libinput reads every click")
    func clicksDoNotHoldTheLoop() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let rules = try Self.rulesFile("""
            on("tap", function(g) emit("clicks"); for i = 1, 40 do pointer.click("left", 3) end end)
            on("2-finger tap", function(g) emit("two") end)
            """)
        let (engine, pointer, _) = try Self.start(rules: rules, on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(pointer, "no virtual pointer: \(engine.stderr)")
        let desktop = try LibinputWatch(node)
        var tap = TouchPanel.Script()
        tap.land([(x: 100, y: 70)])
        tap.lift(frame: 0.05)
        try device.play(tap.file("tap.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains(#""action":"clicks""#) }, "\(engine.stderr)")
        let clicked = Date()
        var two = TouchPanel.Script()
        two.land([(x: 100, y: 70), (x: 130, y: 70)])
        two.lift(frame: 0.05)
        try device.play(two.file("two.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains(#""action":"two""#) }, "\(engine.stderr)")
        let answered = Date().timeIntervalSince(clicked)
        // 120 clicks 30 ms apart take 3.6 s to go out; the loop slept 2.4 s of that before.
        KernelGuest.say(String(format: "a two-finger tap played after 120 clicks were asked for was acted on %.2f s later", answered))
        #expect(answered < 1.5, "the loop was held \(answered) s")
        desktop.settle(quiet: 1.5)
        let presses = Self.leftButton(desktop)
        // Each press 30 ms after the release before it, across calls too: libinput drops none
        // as a bounce (without the gap it drops a click a call: 160 of 240). A guest whose CPU
        // the host takes away now and then may lose a few to libinput's debouncing.
        let shown = desktop.lines.filter { $0.contains("POINTER_BUTTON") }.map { $0.split(separator: "\t").first.map { String($0.suffix(9)) } ?? "" }
        let alternating = presses.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "pressed" : "released") }
        #expect(presses.count >= 220 && presses.count % 2 == 0 && alternating, "\(presses.count): \(shown.joined(separator: ",")) \(engine.stderr)")
    }

    /// The v120 value libinput gives an axis: `vert 15.00/120.0*`.
    static func v120(_ line: String, _ axis: String) -> Double {
        guard let range = line.range(of: axis + " ") else { return 0 }
        let field = line[range.upperBound...].split(separator: " ").first ?? ""
        let parts = field.split(separator: "/")
        guard parts.count == 2 else { return 0 }
        return Double(parts[1].filter { $0 != "*" }) ?? 0
    }

    @Test("mid-drag, the button goes up: on a rules reload, on SIGTERM, and on SIGKILL by the kernel's clean-up of the device",
          arguments: ["reload", "SIGTERM", "SIGKILL"])
    func releasedMidDrag(_ how: String) throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let source = try String(contentsOfFile: Self.drag, encoding: .utf8)
        let rules = try Self.rulesFile(source)
        let (engine, pointer, _) = try Self.start(rules: rules, on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(pointer, "no virtual pointer: \(engine.stderr)")
        let desktop = try LibinputWatch(node)
        try device.play(Self.threeFingerPan(dx: 30, dy: 0, lift: false).file("held.evemu"))
        #expect(KernelGuest.wait(upTo: 10) { Self.leftButton(desktop) == ["pressed"] }, "\(desktop.lines)")
        switch how {
        case "reload":
            try (source + "\n-- saved again\n").write(toFile: rules, atomically: true, encoding: .utf8)
            #expect(engine.wait(upTo: 10) { _, err in err.contains("reloaded") }, "\(engine.stderr)")
        case "SIGTERM":
            engine.signal(SIGTERM)
            #expect(engine.waitForExit(upTo: 10) != nil)
        default:
            engine.signal(SIGKILL)
            #expect(engine.waitForExit(upTo: 10) != nil)
        }
        #expect(KernelGuest.wait(upTo: 10) { Self.leftButton(desktop) == ["pressed", "released"] }, "\(how): \(desktop.lines)")
        var lift = TouchPanel.Script(startingAt: 0.1, firstTrackingID: 500)
        lift.land([(x: 150, y: 40)])
        lift.lift()
        try device.play(lift.file("lift.evemu"))
        desktop.settle()
        #expect(Self.leftButton(desktop) == ["pressed", "released"], "\(how): \(desktop.lines)")
    }

    @Test("a four-finger pan on a touchscreen handed to the virtual touchpad: libinput reads a three-finger swipe gesture whose deltas follow the fingers 1:1 in mm")
    func touchpadSwipe() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let rules = try Self.rulesFile("""
            local lx, ly = 0, 0
            local function follow(g) touchpad.move(g.dx - lx, g.dy - ly); lx, ly = g.dx, g.dy end
            on("4-finger pan", {
              began = function(g) lx, ly = 0, 0; touchpad.begin(3); follow(g) end,
              changed = follow,
              ended = function(g) follow(g); touchpad.finish() end,
              cancelled = function(g) touchpad.finish() end,
            })
            """)
        let (engine, _, touchpad) = try Self.start(rules: rules, on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(touchpad, "no virtual touchpad: \(engine.stderr)")
        let desktop = try LibinputWatch(node)
        var script = TouchPanel.Script()
        script.land([(x: 100, y: 30), (x: 100, y: 55), (x: 100, y: 80), (x: 100, y: 105)])
        script.move(dx: 60, dy: 0, frames: 40)
        script.lift()
        script.pause(0.3)
        try device.play(script.file("four.evemu"))
        desktop.settle()
        let events = desktop.events
        #expect(events.filter { $0 == "GESTURE_SWIPE_BEGIN" }.count == 1 && events.filter { $0 == "GESTURE_SWIPE_END" }.count == 1, "\(desktop.lines)")
        #expect(events.filter { $0 == "GESTURE_SWIPE_UPDATE" }.count >= 10, "\(desktop.lines)")
        #expect(!events.contains("POINTER_MOTION") && !events.contains { $0.hasPrefix("POINTER_SCROLL") }, "\(desktop.lines)")
        let virtual = Self.swipeUpdates(desktop)
        #expect(virtual.allSatisfy { $0.fingers == 3 }, "\(desktop.lines)")

        // Three fingers swiping 1.5 mm a frame on our clickpad (a real
        // touchpad's kind of description): libinput's step for 1.5 mm of a
        // touchpad's fingers, which the virtual touchpad's steps must equal.
        let pad = try EvemuDevice(description: ClickPad.description())
        let reference = try LibinputWatch(pad.node)
        var swipe = TouchPanel.Script(touchpad: true)
        swipe.land([(x: 10, y: 30), (x: 25, y: 30), (x: 40, y: 30)])
        swipe.move(dx: 45, dy: 0, frames: 30)
        swipe.lift()
        swipe.pause(0.3)
        try pad.play(swipe.file("clickpad-swipe.evemu"))
        reference.settle()
        let touchpadSteps = Self.swipeUpdates(reference).map(\.dx).sorted()
        let virtualSteps = virtual.map(\.dx).sorted()
        let median = { (steps: [Double]) in steps.isEmpty ? 0 : steps[steps.count / 2] }
        let perMillimetre = median(touchpadSteps) / 1.5
        let followed = virtual.reduce(0) { $0 + $1.dx } / perMillimetre
        KernelGuest.say("virtual touchpad: libinput's swipe step \(median(virtualSteps)) for 1.5 mm of fingers, a real clickpad's \(median(touchpadSteps)); the swipe followed \(followed) mm of the fingers' 60")
        #expect(perMillimetre > 0 && abs(median(virtualSteps) - median(touchpadSteps)) <= 0.02 * median(touchpadSteps), "\(desktop.lines)\n\(reference.lines)")
        #expect(abs(virtual.reduce(0) { $0 + $1.dy }) < 0.5)
        // libinput keeps the first millimetres of any touchpad's fingers to itself
        // while it tells a swipe from a pinch (under QEMU, 14 to 20 of them).
        #expect(followed > 30 && followed <= 60.5, "the swipe followed \(followed) mm of 60")
    }

    @Test("a run that finds its devices itself never reads its own virtual touchpad, at start or plugged in later: its swipes do not come back to the rules")
    func ownTouchpadNotRead() throws {
        let rules = try Self.rulesFile(#"on("4-finger pan", { began = function(g) touchpad.begin(3) end, ended = function(g) touchpad.finish() end })"#)
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", rules])
        defer { _ = engine.terminate() }
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        let touchpad = try #require(KernelGuest.node(named: "gesturemap virtual touchpad"), "\(engine.stderr)")
        #expect(engine.stderr.contains("made the virtual touchpad \(touchpad)"), "\(engine.stderr)")
        // A second engine's touchpad, plugged in while this one runs, is skipped too.
        let other = try KernelGuest.gesturemap(["run", "--rules", rules, device.node])
        defer { _ = other.terminate() }
        #expect(KernelGuest.wait(upTo: 20) { KernelGuest.nodes(named: "gesturemap virtual touchpad").count == 2 })
        usleep(500_000)
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(engine.pid)/fd")) ?? []
        let open = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(engine.pid)/fd/" + $0) }
        for node in KernelGuest.nodes(named: "gesturemap virtual touchpad") {
            #expect(!open.contains(node), "the run reads a virtual touchpad, \(node): \(engine.stderr)")
            #expect(!engine.stderr.contains("reading \(node)") && !engine.stderr.contains("found \(node)"), "\(engine.stderr)")
        }
    }

    /// Each GESTURE_SWIPE_UPDATE: its finger count and unaccelerated deltas.
    static func swipeUpdates(_ watch: LibinputWatch) -> [(fingers: Int, dx: Double, dy: Double)] {
        watch.lines.filter { $0.contains("GESTURE_SWIPE_UPDATE") }.compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count > 3, let fingers = Int(words[3]), let delta = unaccelerated(line) else { return nil }
            return (fingers, delta.x, delta.y)
        }
    }

    /// `( 2.34/ 0.00 unaccelerated)` of a gesture update line.
    static func unaccelerated(_ line: String) -> (x: Double, y: Double)? {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return nil }
        let inside = line[line.index(after: open)..<close].replacingOccurrences(of: "unaccelerated", with: "")
        let parts = inside.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
        return (x, y)
    }

    @Test("the delay from a touch frame to its pointer packet, read back from the kernel (evemu-record on both): every packet follows a frame, and the figures are said")
    func delay() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        // Not shared: evemu-record reads the panel beside gesturemap.
        let source = try String(contentsOfFile: Self.drag, encoding: .utf8).replacingOccurrences(of: "share = true, ", with: "")
        let (engine, pointer, _) = try Self.start(rules: Self.rulesFile(source), on: device.node)
        defer { _ = engine.terminate() }
        let node = try #require(pointer, "no virtual pointer: \(engine.stderr)")
        let touches = try KernelReportTimes(device.node)
        let packets = try KernelReportTimes(node, only: 2)
        var delays: [Double] = []
        for round in 0..<4 {
            var script = Self.threeFingerPan(dx: round % 2 == 0 ? 50 : -50, dy: 10)
            script.pause(0.7)
            try device.play(script.file("delay-\(round).evemu"))
        }
        usleep(1_500_000)
        let frames = touches.stop()
        let sent = packets.stop()
        for time in sent {
            guard let frame = frames.last(where: { $0 <= time + 1e-6 }) else { continue }
            delays.append(time - frame)
        }
        #expect(sent.count > 100, "only \(sent.count) pointer packets: \(engine.stderr)")
        #expect(delays.count == sent.count)
        delays.sort()
        try #require(!delays.isEmpty)
        let p50 = delays[delays.count / 2] * 1000, p99 = delays[min(delays.count - 1, delays.count * 99 / 100)] * 1000
        KernelGuest.say(String(format: "pointer delay: %d packets, touch frame to pointer packet p50 %.2f ms, p99 %.2f ms, max %.2f ms (guest under TCG)", delays.count, p50, p99, (delays.last ?? 0) * 1000))
        #expect(delays.allSatisfy { $0 < 1.0 }, "a pointer packet came a second or more after its frame")
    }
}

/// The kernel's time of every SYN_REPORT a device node sends, read as a desktop
/// reads it (its own descriptor, on a thread of its own) until `stop()`.
final class KernelReportTimes: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var times: [Double] = []
    private var running = true
    private let done = DispatchSemaphore(value: 0)
    private let reading = DispatchSemaphore(value: 0)

    /// `only`: just the reports whose packet has an event of this type.
    /// Returns once its reader runs: a reader thread the loaded guest starts
    /// late lets the kernel's small per-client buffer overflow, and a whole
    /// stroke's packets are dropped before the first read.
    init(_ node: String, only type: UInt16? = nil) throws {
        fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw KernelTestError("cannot open \(node): \(String(cString: strerror(errno)))") }
        DispatchQueue.global().async { [self] in
            var buffer = [UInt8](repeating: 0, count: 24 * 256)
            var wanted = type == nil
            reading.signal()
            while lock.withLock({ running }) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { continue }
                for offset in stride(from: 0, to: n - 23, by: 24) {
                    let (seconds, micros, kind, code) = buffer.withUnsafeBytes { raw in
                        (raw.loadUnaligned(fromByteOffset: offset, as: Int64.self), raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self),
                         raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self), raw.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self))
                    }
                    if kind == 0 && code == 0 {
                        if wanted { lock.withLock { times.append(Double(seconds) + Double(micros) / 1e6) } }
                        wanted = type == nil
                    } else if kind == type {
                        wanted = true
                    }
                }
            }
            done.signal()
        }
        reading.wait()
    }

    /// Stops reading; the times read.
    func stop() -> [Double] {
        lock.withLock { running = false }
        done.wait()
        close(fd)
        return lock.withLock { times }
    }
}
