#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `run --share` through a real kernel, judged by real libinput: the desktop
/// reads the clone, and must see what it would have seen of the device, less
/// what the rules claim.
@Suite("Sharing a device with the desktop, judged by real libinput", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelShareTests {
    /// Claims three fingers and more; a 3-finger swipe left says so.
    static let claimingRules = """
        config{ claim_fingers = 3 }
        on("3-finger swipe left", function(g) emit("claimed_swipe") end)
        on("2-finger swipe left", function(g) emit("two_finger_swipe") end)
        """

    static let noClaimRules = """
        on("2-finger swipe left", function(g) emit("two_finger_swipe") end)
        on("tap", function(g) emit("tap") end)
        """

    /// `gesturemap run --share -v` on `node` (`--share-mouse` for a mouse); the clone it made.
    static func share(_ node: String, rules: String, extra: [String] = [], flag: String = "--share") throws -> (engine: Child, clone: String) {
        let path = try Binary.temporaryFile("share-rules.lua", rules).path
        let engine = try KernelGuest.gesturemap(["run", flag, "-v", "--rules", path] + extra + [node])
        var clone: String?
        engine.wait(upTo: 30) { _, err in
            clone = err.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("sharing \(node) with the desktop through ") else { return nil }
                return line.components(separatedBy: " through ").last
            }.first
            return clone != nil || !engine.isRunning
        }
        guard let clone else {
            _ = engine.terminate()
            throw KernelTestError("gesturemap did not share \(node): \(engine.stderr)")
        }
        guard LiveEngine.waitUntilOpened(node, by: engine) else {
            _ = engine.terminate()
            throw KernelTestError("gesturemap does not read \(node): \(engine.stderr)")
        }
        EvemuDevice.settle()
        return (engine, clone)
    }

    /// Everyday use of the test panel: a tap, a one-finger drag, a two-finger swipe.
    static func everyday() throws -> String {
        var script = TouchPanel.Script()
        script.land([(x: 100, y: 70)])
        script.lift(frame: 0.06)
        script.pause(0.5)
        script.land([(x: 60, y: 40)])
        script.move(dx: 40, dy: 30, frames: 25)
        script.lift()
        script.pause(0.5)
        script.twoFingerSwipe(dx: -60)
        script.pause(0.5)
        return try script.file("everyday.evemu")
    }

    @Test("without claims the clone gets every packet: libinput's events on it equal its events on the device alone, and gesturemap still acts")
    func unclaimedTouchscreen() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let events = try Self.everyday()

        let alone = try LibinputWatch(device.node)
        try device.play(events)
        alone.settle()
        let expected = alone.events
        #expect(expected.filter { $0 == "TOUCH_DOWN" }.count == 4, "\(alone.lines)")

        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        let original = try LibinputWatch(device.node)
        try device.play(events)
        desktop.settle()
        #expect(LibinputWatch.counts(desktop.events) == LibinputWatch.counts(expected), "\(desktop.lines)")
        #expect(desktop.events == expected)
        #expect(original.events.isEmpty, "the device itself is gesturemap's: \(original.lines)")
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("two_finger_swipe") }, "\(engine.stdout)\n\(engine.stderr)")
        #expect(LiveEngine.actions(engine) == ["tap", "two_finger_swipe"])
    }

    @Test("claim_fingers 3: a 3-finger swipe is gesturemap's and libinput on the clone sees nothing of it; a tap and a drag after it still reach the desktop")
    func claimedTouchscreen() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.claimingRules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)

        var script = TouchPanel.Script()
        script.threeFingerSwipeLeft()
        try device.play(script.file("claimed.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("claimed_swipe") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(desktop.events.isEmpty, "the claimed fingers reached the desktop: \(desktop.lines)")

        // Fingers landing one after another, the third 30 ms after the first: within the hold.
        var staggered = script.continuing()
        staggered.land([(x: 150, y: 40)], frame: 0.015)
        staggered.land([(x: 150, y: 70)], frame: 0.015)
        staggered.land([(x: 150, y: 100)])
        staggered.move(dx: -60, dy: 0, frames: 30)
        staggered.lift()
        staggered.pause(0.5)
        try device.play(staggered.file("staggered.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in LiveEngine.actions(engine).count == 2 || out.contains("error") }, "\(engine.stdout)")
        desktop.settle()
        #expect(desktop.events.isEmpty, "fingers landing 15 ms apart reached the desktop: \(desktop.lines)")

        var after = staggered.continuing()
        after.land([(x: 100, y: 70)])
        after.lift(frame: 0.1)
        after.pause(0.5)
        after.land([(x: 60, y: 40)])
        after.move(dx: 40, dy: 30, frames: 25)
        after.lift()
        after.pause(0.5)
        try device.play(after.file("after.evemu"))
        desktop.settle()
        let counts = LibinputWatch.counts(desktop.events)
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == 2 && desktop.events.filter { $0 == "TOUCH_UP" }.count == 2, "\(counts)")
        #expect(desktop.events.filter { $0 == "TOUCH_MOTION" }.count >= 20, "the drag reached the desktop: \(counts)")
        #expect(LiveEngine.actions(engine) == ["claimed_swipe", "claimed_swipe"])
    }

    static let ruleClaims = """
        on("3-finger swipe left", function(g) emit("claimed_swipe") end, { claim = true })
        on("edge swipe from left", function(g) emit("claimed_edge") end, { claim = true })
        on("3-finger tap", function(g) emit("three_finger_tap") end)
        """

    @Test("claim = true: a claimed 3-finger swipe and a claimed edge swipe never reach the desktop; an unclaimed 3-finger tap, a tap and a drag do")
    func ruleClaims() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.ruleClaims)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)

        var swipe = TouchPanel.Script()
        swipe.threeFingerSwipeLeft()
        try device.play(swipe.file("rule-swipe.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("claimed_swipe") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(desktop.events.isEmpty, "the claimed swipe reached the desktop: \(desktop.lines)")

        var tap = swipe.continuing()
        tap.land([(x: 100, y: 40), (x: 100, y: 70), (x: 100, y: 100)])
        tap.lift(frame: 0.1)
        tap.pause(0.5)
        try device.play(tap.file("rule-tap3.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("three_finger_tap") }, "\(engine.stdout)")
        desktop.settle()
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == 3 && desktop.events.filter { $0 == "TOUCH_UP" }.count == 3,
                "the unclaimed 3-finger tap did not reach the desktop whole: \(desktop.lines)")

        var edge = tap.continuing()
        edge.land([(x: 1, y: 70)])
        edge.move(dx: 60, dy: 0, frames: 30)
        edge.lift()
        edge.pause(0.5)
        let before = desktop.events.count
        try device.play(edge.file("rule-edge.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("claimed_edge") }, "\(engine.stdout)")
        desktop.settle()
        #expect(desktop.events.count == before, "the claimed edge swipe reached the desktop: \(desktop.lines)")

        var everyday = edge.continuing()
        everyday.land([(x: 120, y: 70)])
        everyday.lift(frame: 0.1)
        everyday.pause(0.5)
        everyday.land([(x: 60, y: 40)])
        everyday.move(dx: 40, dy: 30, frames: 25)
        everyday.lift()
        everyday.pause(0.5)
        try device.play(everyday.file("rule-everyday.evemu"))
        desktop.settle()
        let after = Array(desktop.events[before...])
        #expect(after.filter { $0 == "TOUCH_DOWN" }.count == 2 && after.filter { $0 == "TOUCH_UP" }.count == 2, "\(LibinputWatch.counts(after))")
        #expect(after.filter { $0 == "TOUCH_MOTION" }.count >= 15, "the drag reached the desktop: \(LibinputWatch.counts(after))")
        #expect(LiveEngine.actions(engine) == ["claimed_swipe", "three_finger_tap", "claimed_edge"])
    }

    /// A clickpad's everyday use: the pointer, a two-finger scroll, a tap, a
    /// two-finger tap, and a click-and-drag with the button under the pad.
    static func clickpadEveryday() -> TouchPanel.Script {
        var script = TouchPanel.Script(touchpad: true)
        script.land([(x: 30, y: 30)])
        script.move(dx: 30, dy: 10, frames: 30)
        script.lift()
        script.pause(0.6)
        script.land([(x: 40, y: 20), (x: 60, y: 20)])
        script.move(dx: 0, dy: 25, frames: 30)
        script.lift()
        script.pause(0.8)
        script.land([(x: 50, y: 30)])
        script.lift(frame: 0.08)
        script.pause(0.6)
        script.land([(x: 40, y: 30), (x: 60, y: 30)])
        script.lift(frame: 0.08)
        script.pause(0.6)
        // A finger that rests before it clicks: libinput's hold gesture begins
        // (after the landing hold-back too, which delays it by up to 150 ms).
        script.land([(x: 30, y: 50)])
        script.pause(0.4)
        script.click(true)
        script.move(dx: 30, dy: -20, frames: 30)
        script.click(false)
        script.lift()
        script.pause(0.6)
        return script
    }

    @Test("a clickpad with claims on: the pointer, a two-finger scroll, tap-to-click, a two-finger tap and click-and-drag reach libinput on the clone as on the device alone; claimed 3- and 4-finger swipes reach it not at all")
    func clickpad() throws {
        let everyday = Self.clickpadEveryday()
        let events = try everyday.file("clickpad-everyday.evemu")
        let first = try EvemuDevice(description: ClickPad.description())
        let alone = try LibinputWatch(first.node, tapping: true)
        try first.play(events)
        alone.settle()
        let expected = alone.reading
        for wanted in ["POINTER_MOTION", "POINTER_SCROLL_FINGER", "POINTER_BUTTON"] {
            #expect(expected.events.contains(wanted), "the device alone: \(LibinputWatch.counts(expected.events))")
        }
        first.remove()

        let device = try EvemuDevice(description: ClickPad.description())
        let rules = Self.claimingRules + "\non(\"4-finger swipe left\", function(g) emit(\"claimed_four\") end)\n"
        let (engine, clone) = try Self.share(device.node, rules: rules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone, tapping: true)
        try device.play(events)
        desktop.settle()
        let difference = LibinputWatch.difference(desktop.reading, expected)
        #expect(difference == nil, "\(difference ?? "")\n\(desktop.lines)\nalone:\n\(alone.lines)")

        var claimed = everyday.continuing()
        claimed.land([(x: 30, y: 20), (x: 45, y: 20), (x: 60, y: 20)])
        claimed.move(dx: -40, dy: 0, frames: 25)
        claimed.lift()
        claimed.pause(0.6)
        claimed.land([(x: 30, y: 20), (x: 45, y: 20), (x: 60, y: 20), (x: 75, y: 20)])
        claimed.move(dx: -40, dy: 0, frames: 25)
        claimed.lift()
        claimed.pause(0.6)
        let before = desktop.events.count
        try device.play(claimed.file("clickpad-claimed.evemu"))
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("claimed_four") }, "\(engine.stdout)\n\(engine.stderr)")
        desktop.settle()
        #expect(desktop.events.count == before, "claimed swipes reached the desktop: \(desktop.lines.suffix(20))")
        #expect(LiveEngine.actions(engine).suffix(2) == ["claimed_swipe", "claimed_four"])
    }

    @Test("a touchpad whose kernel gives fuzz: libinput's udev rule keeps it for the device (LIBINPUT_FUZZ_*), and the clone gets the same")
    func fuzz() throws {
        let header = ClickPad.header.replacingOccurrences(of: "A: 35 0 1200 0 0 12", with: "A: 35 0 1200 8 0 12")
            .replacingOccurrences(of: "A: 36 0 720 0 0 12", with: "A: 36 0 720 6 0 12")
        let device = try EvemuDevice(description: try Binary.temporaryFile("fuzzy.desc", header).path)
        func property(_ node: String, _ name: String) throws -> String? {
            let info = try KernelGuest.run("udevadm", ["info", "--query=property", "--name=" + node])
            return info.stdout.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        let original = (try property(device.node, "LIBINPUT_FUZZ_35"), try property(device.node, "LIBINPUT_FUZZ_36"))
        try #require(original.0 == "8" && original.1 == "6", "libinput's udev rule did not run on the device: \(original)")
        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        defer { _ = engine.terminate() }
        #expect(try property(clone, "LIBINPUT_FUZZ_35") == "8")
        #expect(try property(clone, "LIBINPUT_FUZZ_36") == "6")
    }

    @Test("SYN_DROPPED while shared (gesturemap stopped, a flood, the lift lost in the drop): no contact stays down on the clone, and the next tap reaches the desktop")
    func dropped() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        var flood = TouchPanel.Script()
        flood.land([(x: 60, y: 40), (x: 60, y: 70), (x: 60, y: 100)])
        for _ in 0..<10 {
            flood.move(dx: 100, dy: 0, frames: 25)
            flood.move(dx: -100, dy: 0, frames: 25)
        }
        flood.lift()
        engine.signal(SIGSTOP)
        #expect(KernelGuest.wait(upTo: 10) { KernelGuest.processState(engine.pid).hasPrefix("T") })
        try device.play(flood.file("share-flood.evemu"))
        engine.signal(SIGCONT)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("SYN_DROPPED") }, "\(engine.stderr)")
        var tap = flood.continuing()
        tap.pause(0.3)
        tap.land([(x: 100, y: 70)])
        tap.lift(frame: 0.1)
        tap.pause(0.3)
        try device.play(tap.file("share-after-drop.evemu"))
        desktop.settle()
        let downs = desktop.events.filter { $0 == "TOUCH_DOWN" }.count
        let ups = desktop.events.filter { $0 == "TOUCH_UP" }.count
        #expect(downs == ups, "a contact stayed down on the clone: \(LibinputWatch.counts(desktop.events))")
        #expect(desktop.events.suffix(4).contains("TOUCH_DOWN"), "the tap after the drop: \(desktop.lines.suffix(6))")
    }

    @Test("examples/share.lua: one finger moving away from the edges reaches the clone as it moves, spread over the drag, not in a burst at the lift (its edge claim failed at the landing)")
    func shareExampleOneFingerDrag() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let example = try String(contentsOfFile: Binary.packageRoot.appendingPathComponent("examples/share.lua").path, encoding: .utf8)
        let (engine, clone) = try Self.share(device.node, rules: example)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        // 30 mm from the left edge, 30 x 10 mm in 0.48 s.
        var drag = TouchPanel.Script()
        drag.land([(x: 30, y: 60)])
        drag.move(dx: 30, dy: 10, frames: 60)
        drag.lift()
        drag.pause(0.5)
        try device.play(drag.file("share-drag.evemu"))
        desktop.settle()
        let motions = desktop.times(of: "TOUCH_MOTION")
        let spread = (motions.last ?? 0) - (motions.first ?? 0)
        KernelGuest.say(String(format: "examples/share.lua, a one-finger drag of 0.48 s: %d motions on the clone over %.2f s", motions.count, spread))
        #expect(motions.count >= 40, "\(LibinputWatch.counts(desktop.events))")
        // Live: over most of the drag (the landing hold-back takes its first 1.5 mm), never all at the lift.
        #expect(spread >= 0.3, "the drag reached the clone within \(spread) s: \(desktop.lines.suffix(4))")
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == 1 && desktop.events.filter { $0 == "TOUCH_UP" }.count == 1)
    }

    @Test("beside claimed 3-finger swipes left and right: a quick 3-finger swipe up reaches the clone as it moves, and a slow 3-finger pan of 1.5 s reaches it spread over at least half its length")
    func unclaimedThreeFingers() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: """
            on("3-finger swipe left", function(g) emit("left") end, { claim = true })
            on("3-finger swipe right", function(g) emit("right") end, { claim = true })
            """)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        var up = TouchPanel.Script()
        up.land([(x: 120, y: 110), (x: 150, y: 110), (x: 180, y: 110)])
        up.move(dx: 0, dy: -60, frames: 30)
        up.lift()
        up.pause(0.5)
        try device.play(up.file("swipe-up.evemu"))
        desktop.settle()
        let quick = desktop.times(of: "TOUCH_MOTION")
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == 3 && desktop.events.filter { $0 == "TOUCH_UP" }.count == 3, "\(LibinputWatch.counts(desktop.events))")
        #expect((quick.last ?? 0) - (quick.first ?? 0) >= 0.1, "the swipe up reached the clone at once: \(quick)")
        let before = desktop.lines.count
        var pan = up.continuing()
        pan.land([(x: 120, y: 110), (x: 150, y: 110), (x: 180, y: 110)])
        pan.move(dx: 0, dy: -40, frames: 188)
        pan.lift()
        pan.pause(0.5)
        try device.play(pan.file("slow-pan.evemu"))
        desktop.settle()
        let slow = desktop.times(of: "TOUCH_MOTION").suffix(from: quick.count)
        let spread = (slow.last ?? 0) - (slow.first ?? 0)
        KernelGuest.say(String(format: "beside claimed swipes: a quick swipe up on the clone over %.2f s; a 1.5 s pan over %.2f s", (quick.last ?? 0) - (quick.first ?? 0), spread))
        #expect(spread >= 0.75, "the slow pan reached the clone over \(spread) s: \(desktop.lines.suffix(from: before).prefix(3))")
        #expect(LiveEngine.actions(engine).isEmpty)
    }

    /// Backspace, Escape and Enter pressed together, then let go.
    static func escapeChord() throws -> String {
        var lines: [String] = []
        var t = 0.1
        for code in ["000e", "0001", "001c"] {
            lines += [String(format: "E: %.6f 0001 %@ 0001", t, code), String(format: "E: %.6f 0000 0000 0000", t)]
            t += 0.05
        }
        for code in ["001c", "0001", "000e"] {
            lines += [String(format: "E: %.6f 0001 %@ 0000", t, code), String(format: "E: %.6f 0000 0000 0000", t)]
            t += 0.02
        }
        return try Binary.temporaryFile("escape-chord.evemu", keyboard + lines.joined(separator: "\n") + "\n").path
    }

    @Test("the escape chord (Backspace+Escape+Enter): with every touch claimed, sharing suspends and the desktop reads the device itself, its clone gone; pressed again, the device is grabbed and shared again")
    func escapeChord() throws {
        let keyboard = try EvemuDevice(description: try Binary.temporaryFile("keyboard.desc", Self.keyboard).path)
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: "config{ claim_fingers = 1 }\n" + Self.noClaimRules)
        defer { _ = engine.terminate() }
        #expect(engine.stderr.contains("keyboard"), "\(engine.stderr)")
        let original = try LibinputWatch(device.node)
        var drag = TouchPanel.Script()
        func play(_ name: String) throws {
            drag = drag.continuing()
            drag.land([(x: 80, y: 60)])
            drag.move(dx: 25, dy: 5, frames: 20)
            drag.lift()
            drag.pause(0.3)
            try device.play(drag.file(name + ".evemu"))
            original.settle()
        }
        // Shared, every touch claimed: the device is grabbed, the desktop sees nothing of it.
        try play("claimed")
        #expect(original.events.isEmpty, "\(original.lines)")
        let chord = try Self.escapeChord()
        try keyboard.play(chord)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("Backspace+Escape+Enter: sharing suspended") }, "\(engine.stderr)")
        #expect(KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: clone) }, "the clone \(clone) stayed")
        try play("suspended")
        #expect(original.events.filter { $0 == "TOUCH_DOWN" }.count == 1 && original.events.filter { $0 == "TOUCH_UP" }.count == 1, "\(original.lines)")
        let mark = original.lines.count
        try keyboard.play(chord)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("Backspace+Escape+Enter: sharing resumed (1 device)") }, "\(engine.stderr)")
        try play("resumed")
        #expect(original.events(fromLine: mark).isEmpty, "shared again, the device is grabbed: \(original.lines.suffix(from: mark))")
    }

    @Test("the rules stalled (a stdout nobody reads) through a flood: their share of the device's events is bounded, the drop is said with its size, the touches then down are cancelled, and the next tap reaches the rules; the desktop has every touch")
    func engineStalled() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        // Four kilobytes on stdout a frame: the pipe is full after 16 frames, and the engine waits on it.
        let (engine, clone) = try Self.share(device.node, rules: """
            local pad = ("x"):rep(4000)
            recognizer("every", { frame = function(r, f) emit("frame", { pad = pad }) end })
            on("every", function(g) end)
            on("tap", function(g) emit("tap") end)
            """)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        // Ten fingers for 1,500 frames: 46,000 records, more than the engine's share may hold (1 MiB, 43,690).
        var flood = TouchPanel.Script()
        flood.land((0..<10).map { (x: 40 + Double($0) * 12, y: 60) })
        for _ in 0..<15 {
            flood.move(dx: 30, dy: 20, frames: 50, frame: 0.002)
            flood.move(dx: -30, dy: -20, frames: 50, frame: 0.002)
        }
        flood.lift()
        try device.play(flood.file("stalled-flood.evemu"))
        desktop.settle()
        // Reading stdout lets the engine go on: it takes what waited, then the device's state.
        let said = "the rules fell behind this device: "
        #expect(engine.wait(upTo: 120) { _, err in err.contains(said) }, "\(engine.stderr)")
        let dropped = engine.stderr.components(separatedBy: said).dropFirst().first?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        KernelGuest.say("a stalled engine: \(dropped) of about 46,000 events dropped for the rules; the desktop's clone: \(LibinputWatch.counts(desktop.events))")
        #expect(dropped > 0 && dropped < 46_000)
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == desktop.events.filter { $0 == "TOUCH_UP" }.count, "\(LibinputWatch.counts(desktop.events))")
        var tap = flood.continuing()
        tap.pause(0.5)
        tap.land([(x: 100, y: 70)])
        tap.lift(frame: 0.06)
        tap.pause(0.5)
        try device.play(tap.file("tap-after-stall.evemu"))
        #expect(engine.wait(upTo: 30) { _, _ in LiveEngine.actions(engine).contains("tap") }, "\(engine.stderr)")
    }

    @Test("a rules reload changes the claims and keeps the clone: three fingers reach the desktop, then after claim_fingers = 3 is saved they do not")
    func reload() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let rules = try Binary.temporaryFile("share-reload.lua", Self.noClaimRules)
        let engine = try KernelGuest.gesturemap(["run", "--share", "-v", "--rules", rules.path, device.node])
        defer { _ = engine.terminate() }
        #expect(engine.wait(upTo: 30) { _, err in err.contains("with the desktop through ") }, "\(engine.stderr)")
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine))
        let clone = try #require(engine.stderr.components(separatedBy: "with the desktop through ").last?.split(separator: "\n").first.map(String.init))
        EvemuDevice.settle()
        let desktop = try LibinputWatch(clone)
        var three = TouchPanel.Script()
        three.threeFingerSwipeLeft()
        try device.play(three.file("reload-before.evemu"))
        desktop.settle()
        #expect(desktop.events.filter { $0 == "TOUCH_DOWN" }.count == 3, "\(desktop.lines)")

        try (Self.noClaimRules + "\nconfig{ claim_fingers = 3 }\n").write(to: rules, atomically: true, encoding: .utf8)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("reloaded") }, "\(engine.stderr)")
        let before = desktop.events.count
        var again = three.continuing()
        again.threeFingerSwipeLeft()
        try device.play(again.file("reload-after.evemu"))
        desktop.settle()
        #expect(desktop.events.count == before, "claimed after the reload, yet it reached the desktop: \(desktop.lines.suffix(10))")
        #expect(!desktop.removed && FileManager.default.fileExists(atPath: clone), "the reload dropped the clone")
        #expect(engine.stderr.components(separatedBy: "with the desktop through ").count == 2, "one clone: \(engine.stderr)")
    }

    /// An internal keyboard (i8042, as a laptop's is): keys 1 to 31, the range udev calls a keyboard.
    static let keyboard = """
        # EVEMU 1.3
        N: AT Translated Set 2 keyboard
        I: 0011 0001 0001 ab41
        P: 00 00 00 00 00 00 00 00
        B: 00 03 00 00 00 00 00 00 00
        B: 01 fe ff ff ff 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00

        """

    /// Typing an "a" every 80 ms for 3 s.
    static func typing() throws -> String {
        var lines: [String] = []
        for i in 0..<38 {
            let t = 0.1 + Double(i) * 0.08
            lines += [String(format: "E: %.6f 0001 001e 0001", t), String(format: "E: %.6f 0000 0000 0000", t),
                      String(format: "E: %.6f 0001 001e 0000", t + 0.03), String(format: "E: %.6f 0000 0000 0000", t + 0.03)]
        }
        return try Binary.temporaryFile("typing.evemu", keyboard + lines.joined(separator: "\n") + "\n").path
    }

    @Test("disable-while-typing: libinput pairs the clone with the internal keyboard as it pairs the device, and a touch begun while typing moves no pointer on either")
    func disableWhileTyping() throws {
        var stroke = TouchPanel.Script(startingAt: 0.6, touchpad: true)
        stroke.land([(x: 30, y: 30)])
        stroke.move(dx: 40, dy: 10, frames: 60)
        stroke.lift()
        let strokeFile = try stroke.file("dwt-stroke.evemu")
        let typing = try Self.typing()

        func motions(touchpad node: String, keyboard: EvemuDevice, play device: EvemuDevice) throws -> (typing: Int, alone: Int) {
            let watch = try Child(["/usr/bin/libinput", "debug-events", "--device", node, "--device", keyboard.node])
            defer { _ = watch.terminate() }
            #expect(watch.wait(upTo: 20) { out, _ in out.components(separatedBy: "DEVICE_ADDED").count == 3 }, "\(watch.stdout)\(watch.stderr)")
            let typist = try keyboard.startPlaying(typing)
            try device.play(strokeFile)
            _ = typist.waitForExit(upTo: 20)
            usleep(800_000)
            let whileTyping = watch.outputLines.filter { $0.contains("POINTER_MOTION") }.count
            try device.play(strokeFile)
            usleep(800_000)
            let all = watch.outputLines.filter { $0.contains("POINTER_MOTION") }.count
            return (whileTyping, all - whileTyping)
        }

        let keyboard = try EvemuDevice(description: try Binary.temporaryFile("keyboard.desc", Self.keyboard).path)
        let first = try EvemuDevice(description: ClickPad.description())
        let alone = try motions(touchpad: first.node, keyboard: keyboard, play: first)
        first.remove()
        #expect(alone.typing == 0 && alone.alone >= 30, "libinput did not pair the device itself with the keyboard: \(alone)")

        let device = try EvemuDevice(description: ClickPad.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        defer { _ = engine.terminate() }
        let shared = try motions(touchpad: clone, keyboard: keyboard, play: device)
        #expect(shared.typing == 0, "the clone moved the pointer while typing: libinput did not pair it with the keyboard (\(shared))")
        #expect(shared.alone >= 30, "\(shared)")
    }

    @Test("two fingers scrolling, then a third: the two end on the clone at once and nothing of the third reaches it")
    func claimedLate() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.claimingRules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        var script = TouchPanel.Script()
        script.land([(x: 100, y: 40), (x: 100, y: 70)])
        script.move(dx: 0, dy: 30, frames: 20)
        script.land([(x: 100, y: 100)])
        script.move(dx: 0, dy: 30, frames: 20)
        script.lift()
        script.pause(0.5)
        try device.play(script.file("late.evemu"))
        desktop.settle()
        let events = desktop.events
        #expect(events.filter { $0 == "TOUCH_DOWN" }.count == 2, "\(desktop.lines)")
        #expect(events.filter { $0 == "TOUCH_UP" }.count == 2, "every contact the clone got ended: \(desktop.lines)")
        // After the two ended, nothing: the moves of the three fingers are gesturemap's.
        let lastUp = events.lastIndex(of: "TOUCH_UP") ?? 0
        #expect(!events[lastUp...].contains("TOUCH_MOTION"), "\(desktop.lines)")
    }

    @Test("SIGKILL in the middle of a forwarded stroke: the clone goes, and the device is the desktop's again")
    func killed() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        let desktop = try LibinputWatch(clone)
        let original = try LibinputWatch(device.node)
        var first = TouchPanel.Script()
        first.land([(x: 60, y: 40)])
        first.move(dx: 20, dy: 0, frames: 10)
        try device.play(first.file("before-kill.evemu"))
        #expect(KernelGuest.wait(upTo: 10) { desktop.events.contains("TOUCH_DOWN") }, "\(desktop.lines)")
        engine.signal(SIGKILL)
        #expect(engine.waitForExit(upTo: 10) != nil)
        #expect(KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: clone) }, "the clone outlived gesturemap")
        #expect(KernelGuest.wait(upTo: 10) { desktop.removed }, "\(desktop.lines)")

        // The stroke ends, and the next touch is the desktop's, read from the device itself.
        var rest = first.continuing()
        rest.move(dx: 20, dy: 0, frames: 10)
        rest.lift()
        rest.pause(0.3)
        rest.land([(x: 100, y: 70)])
        rest.move(dx: 10, dy: 0, frames: 5)
        rest.lift()
        rest.pause(0.3)
        try device.play(rest.file("after-kill.evemu"))
        original.settle()
        #expect(original.events.contains("TOUCH_DOWN") && original.events.contains("TOUCH_UP"), "the desktop reads the device again: \(original.lines)")
    }

    @Test("unplugged, the clone goes; plugged in again, a new clone; and the run never reads its own clone")
    func hotplug() throws {
        let engine = try KernelGuest.gesturemap(["run", "--share", "-v", "--rules", try Binary.temporaryFile("hp.lua", Self.noClaimRules).path])
        defer { _ = engine.terminate() }
        #expect(engine.wait(upTo: 20) { _, err in err.contains("waiting for a touch device to be plugged in") }, "\(engine.stderr)")
        var device = try EvemuDevice(description: TouchPanel.description())
        var clone: String?
        #expect(engine.wait(upTo: 20) { _, err in
            clone = err.components(separatedBy: "with the desktop through ").dropFirst().first?.split(separator: "\n").first.map(String.init)
            return clone != nil
        }, "\(engine.stderr)")
        let firstClone = try #require(clone)
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine))
        try device.play(LiveEngine.swipe())
        #expect(engine.wait(upTo: 10) { out, _ in out.contains("two_finger_swipe") })
        usleep(500_000)
        #expect(LiveEngine.actions(engine) == ["two_finger_swipe"], "one device read, not its clone too: \(engine.stderr)")
        #expect(!engine.stderr.contains("found \(firstClone)"))

        device.remove()
        #expect(KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: firstClone) }, "the clone outlived its device")
        device = try EvemuDevice(description: TouchPanel.description())
        #expect(engine.wait(upTo: 20) { _, err in err.components(separatedBy: "with the desktop through ").count == 3 }, "\(engine.stderr)")
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine))
        try device.play(LiveEngine.swipe("again"))
        #expect(engine.wait(upTo: 10) { _, _ in LiveEngine.actions(engine).count == 2 }, "\(engine.stdout)")
    }

    @Test("five fingers held still for 3 s: sharing stops, the clone goes, and the desktop reads the device again")
    func escape() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let (engine, clone) = try Self.share(device.node, rules: Self.claimingRules)
        defer { _ = engine.terminate() }
        let original = try LibinputWatch(device.node)
        var hold = TouchPanel.Script()
        hold.land([(x: 40, y: 40), (x: 80, y: 40), (x: 120, y: 40), (x: 160, y: 40), (x: 200, y: 40)])
        hold.pause(3.5)
        hold.lift()
        hold.pause(0.2)
        try device.play(hold.file("escape.evemu"))
        #expect(engine.wait(upTo: 10) { _, err in err.contains("stopped sharing it") }, "\(engine.stderr)")
        #expect(KernelGuest.wait(upTo: 10) { !FileManager.default.fileExists(atPath: clone) })
        var tap = hold.continuing()
        tap.land([(x: 100, y: 70)])
        tap.lift(frame: 0.1)
        tap.pause(0.3)
        try device.play(tap.file("after-escape.evemu"))
        original.settle()
        #expect(original.events.contains("TOUCH_DOWN"), "\(original.lines)")
        #expect(engine.isRunning)
    }

    @Test("--share for a user who may read the device but not write uinput: exit 69, and how to fix it")
    func noUinput() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "--share", "--rules", LiveEngine.pager, device.node], as: KernelAccessTests.reader)
        let status = engine.waitForExit(upTo: 20)
        #expect(status == 69, "\(engine.stderr)")
        #expect(engine.stderr.contains("gesturemap: --share needs write access to /dev/uinput to give the desktop its copy of \(device.node); the udev rule 70-gesturemap.rules gives it to the user logged in at the seat"), "\(engine.stderr)")
    }

    /// The real touchpad recordings that come with their device's description.
    static let touchpadRecordings = RealRecording.all.filter { $0.events.contains("/touchpads/") }

    /// The Synaptics two-finger scroll: on a fresh device libinput scrolls 236.3 of it
    /// (its vertical twin, played first on a fresh device, makes no scroll at all).
    static let scrollRecordings = touchpadRecordings.filter { $0.events.contains("two-finger-scroll-horizontal") }

    @Test("a real touchpad's two-finger scroll beside claim_fingers = 3 (examples/share.lua's): libinput scrolls within 5% as far as on the device alone",
          .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"), arguments: scrollRecordings)
    func scrollBesideFingerClaim(_ recording: RealRecording) throws {
        let description = recording.descriptionFile ?? recording.events
        // libinput's touchpad state carries over from one play of a scroll to the
        // next on one device (the second loses its scroll, with or without
        // gesturemap): one play on a device of its own for each.
        func play(_ device: EvemuDevice, _ watch: LibinputWatch) throws -> (vertical: Double, horizontal: Double) {
            try device.play(recording.events)
            watch.settle()
            return watch.scrolled()
        }
        let first = try EvemuDevice(description: description)
        let alone = try play(first, try LibinputWatch(first.node))
        first.remove()
        let device = try EvemuDevice(description: description)
        let (engine, clone) = try Self.share(device.node, rules: "config{ claim_fingers = 3 }\n" + Self.noClaimRules)
        defer { _ = engine.terminate() }
        let shared = try play(device, try LibinputWatch(clone))
        KernelGuest.say(String(format: "%@ beside claim_fingers 3: scrolled (%.1f, %.1f) against (%.1f, %.1f) alone", recording.testDescription, shared.vertical, shared.horizontal, alone.vertical, alone.horizontal))
        let (a, b) = (hypot(shared.vertical, shared.horizontal), hypot(alone.vertical, alone.horizontal))
        #expect(b > 0, "libinput made no scroll of it on the device alone")
        #expect(abs(a - b) <= 0.05 * b, "scrolled \(a) against \(b)")
    }

    @Test("real touchpads through the clone (scrolls, taps, clicks): libinput's events are the desktop's same as on the device alone",
          .enabled(if: RealRecording.present, "needs ../shared/data/real/evemu-devices"), arguments: touchpadRecordings)
    func touchpad(_ recording: RealRecording) throws {
        // A recording that holds its description makes its device itself.
        let description = recording.descriptionFile ?? recording.events
        let events = recording.events
        // Each run plays the recording twice and compares the second: the first
        // touch after a start finds caches cold (libinput's, the runtime's),
        // which under QEMU shifts its first packets by tens of milliseconds,
        // and a desktop in use is past its first touch. A device of its own
        // for each run, each left in the same state by the first play.
        func secondPlay(_ device: EvemuDevice, _ watch: LibinputWatch) throws -> LibinputWatch.Reading {
            try device.play(events)
            watch.settle()
            let mark = watch.lines.count
            try device.play(events)
            watch.settle()
            return watch.reading(fromLine: mark)
        }
        let first = try EvemuDevice(description: description)
        let expected = try secondPlay(first, try LibinputWatch(first.node))
        // Some make nothing (a Cypress three-finger tap libinput does not take): the clone must make nothing too.
        first.remove()

        let device = try EvemuDevice(description: description)
        let (engine, clone) = try Self.share(device.node, rules: Self.noClaimRules)
        defer { _ = engine.terminate() }
        let desktop = try LibinputWatch(clone)
        let got = try secondPlay(device, desktop)
        let difference = LibinputWatch.difference(got, expected)
        #expect(difference == nil, "\(difference ?? "")\n\(desktop.lines)")
    }

}
