#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The live paths through a real kernel: the shipped service's start, hotplug,
/// SYN_DROPPED, uinput keys, --grab, access and the udev rule. One at a time:
/// runs with no input read every touch device there is.
@Suite("Live paths through a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelLiveTests {
    static let pager = Binary.packageRoot.appendingPathComponent("examples/pager.lua").path

    /// Waits until `engine` reads the node: it has the node open and waits in
    /// poll, its loop. Only then may a test play: events queued before the
    /// engine asked for CLOCK_MONOTONIC are flushed by the kernel, which queues
    /// a SYN_DROPPED instead, readable only with the next SYN_REPORT.
    static func waitUntilOpened(_ node: String, by engine: Child, timeout: Double = 30) -> Bool {
        let fdDirectory = "/proc/\(engine.pid)/fd"
        return KernelGuest.wait(upTo: timeout) {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []
            let open = fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + $0)) == node }
            let wchan = (try? String(contentsOfFile: "/proc/\(engine.pid)/wchan", encoding: .utf8)) ?? ""
            return open && wchan.contains("poll")
        }
    }

    static func swipe(_ name: String = "swipe", dx: Double = -60) throws -> String {
        var script = TouchPanel.Script()
        script.twoFingerSwipe(dx: dx)
        return try script.file(name + ".evemu")
    }

    static func actions(_ engine: Child) -> [String] {
        engine.outputLines.compactMap { Binary.json($0)?["action"] as? String }
    }

    // MARK: The shipped service

    @Test("the shipped unit's command, with standard input /dev/null and no desktop, reads the touch devices and turns a page")
    func shippedService() throws {
        let unit = try String(contentsOf: Binary.packageRoot.appendingPathComponent("examples/systemd/gesturemap.service"), encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        let home = try Binary.temporaryDirectory()
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/gesturemap"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.pager, toPath: home.appendingPathComponent(".config/gesturemap/rules.lua").path)
        // %h is the user's home; the binary is this build's, wherever the unit says it is installed.
        var words = execStart.split(separator: " ").map { $0.replacingOccurrences(of: "%h", with: home.path) }
        #expect(words.first == "/usr/local/bin/gesturemap")
        words.removeFirst()
        #expect(words == ["run", "--rules", home.path + "/.config/gesturemap/rules.lua"])

        let device = try EvemuDevice(description: TouchPanel.description())
        // A user service's environment: no DISPLAY, no WAYLAND_DISPLAY.
        let service = try KernelGuest.gesturemap(words, environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "LANG": "C.UTF-8"])
        defer { _ = service.terminate() }
        #expect(Self.waitUntilOpened(device.node, by: service), "\(service.stderr)")
        try device.play(Self.swipe())
        #expect(service.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(service.stdout)\n\(service.stderr)")
        #expect(service.isRunning)
        #expect(Self.actions(service) == ["next_page"])
    }

    // MARK: Hotplug

    @Test("started with no touch device it waits; a device plugged in later is read, and read again after it is unplugged and plugged in")
    func hotplug() throws {
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", Self.pager])
        defer { _ = engine.terminate() }
        #expect(engine.wait(upTo: 20) { _, err in err.contains("waiting for a touch device to be plugged in") }, "\(engine.stderr)")
        #expect(engine.isRunning)

        var device = try EvemuDevice(description: TouchPanel.description())
        #expect(engine.wait(upTo: 20) { _, err in err.contains("found \(device.node)") }, "\(engine.stderr)")
        try device.play(Self.swipe("first"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)")

        device.remove()
        #expect(engine.wait(upTo: 20) { _, err in err.contains("\(device.node) was unplugged") }, "\(engine.stderr)")
        device = try EvemuDevice(description: TouchPanel.description())
        #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        try device.play(Self.swipe("again", dx: 60))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("prev_page") }, "\(engine.stdout)")
        #expect(Self.actions(engine) == ["next_page", "prev_page"])
    }

    @Test("unplugged in the middle of a stroke: no gesture is made of it")
    func unplugMidStroke() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", Self.pager, device.node])
        defer { _ = engine.terminate() }
        #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        // Far enough to be a swipe, slowly; the fingers never lift.
        var script = TouchPanel.Script()
        script.land([(x: 150, y: 60), (x: 150, y: 90)])
        script.move(dx: -80, dy: 0, frames: 100, frame: 0.01)
        script.pause(5)
        let player = try device.startPlaying(script.file("unlifted.evemu"))
        usleep(1_500_000)
        device.remove()
        _ = player.waitForExit(upTo: 30)
        #expect(engine.wait(upTo: 20) { _, err in err.contains("\(device.node) was unplugged") }, "\(engine.stderr)")
        usleep(500_000)
        #expect(Self.actions(engine).isEmpty, "\(engine.stdout)")
        #expect(engine.isRunning)
    }

    // MARK: SYN_DROPPED

    @Test("a real SYN_DROPPED (the engine stopped while a stroke came in): one message, the state re-read, the next swipe exact")
    func synDropped() throws {
        let rules = try Binary.temporaryFile("every.lua", everyGestureRules)
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "--rules", rules.path, device.node])
        defer { _ = engine.terminate() }
        #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")

        // While it is stopped, three fingers land and move for 4 s, far more
        // than the kernel keeps for a reader; they are still down when it goes on.
        engine.signal(SIGSTOP)
        #expect(KernelGuest.wait(upTo: 10) { KernelGuest.processState(engine.pid).hasPrefix("T") }, "\(KernelGuest.processState(engine.pid))")
        var flood = TouchPanel.Script()
        flood.land([(x: 60, y: 40), (x: 60, y: 70), (x: 60, y: 100)])
        for _ in 0..<10 {
            flood.move(dx: 100, dy: 0, frames: 25, frame: 0.008)
            flood.move(dx: -100, dy: 0, frames: 25, frame: 0.008)
        }
        try device.play(flood.file("flood.evemu"))
        engine.signal(SIGCONT)
        KernelGuest.say("after SIGCONT: \(KernelGuest.processState(engine.pid))")
        let dropped = "SYN_DROPPED: the device dropped events"
        #expect(engine.wait(upTo: 20) { _, err in err.contains(dropped) },
                "\(engine.stderr) \(KernelGuest.processState(engine.pid))")

        // The fingers still down move on and lift: ignored, as their start was lost.
        var rest = flood.continuing()
        rest.move(dx: 0, dy: 60, frames: 30)
        rest.lift()
        rest.pause(0.5)
        rest.twoFingerSwipe(dx: -60)
        rest.pause(0.5)
        rest.twoFingerSwipe(dx: 0, dy: 50)
        try device.play(rest.file("after-drop.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.split(separator: "\n").count >= 2 }, "\(engine.stdout)\n\(engine.stderr)")
        usleep(1_000_000)
        let gestures = engine.outputLines.compactMap(Binary.json).map { "\($0["kind"] ?? "") \($0["fingers"] ?? "") \($0["direction"] ?? "")" }
        #expect(gestures == ["swipe 2 left", "swipe 2 down"], "\(engine.stdout)\n\(engine.stderr)")
        #expect(engine.stderr.components(separatedBy: dropped).count == 2, "one message: \(engine.stderr)")
        #expect(!engine.stderr.contains("tracking id changed without a lift"), "\(engine.stderr)")
        #expect(!engine.stderr.contains("already down when the input began"), "\(engine.stderr)")
    }

    // MARK: uinput keys

    @Test("key() through uinput, read back from the kernel by a reader that opened the keyboard as soon as it appeared: every combination the examples use, the first included")
    func keysReadBack() throws {
        let combos = try Self.exampleKeyCombos()
        #expect(combos.count >= 6)
        let list = combos.map { "\"\($0)\"" }.joined(separator: ", ")
        let rules = try Binary.temporaryFile("keys.lua", """
            on("2-finger swipe left", function(g)
              for _, combo in ipairs({ \(list) }) do key(combo) end
            end)

            """)
        let swipe = try Self.swipe()
        // What the keys should be: the same rules with --dry-run, from the file.
        let dry = try KernelGuest.run(Binary.path, ["run", "--dry-run", "--rules", rules.path, swipe])
        let expected = dry.stdout.split(separator: "\n").compactMap { Binary.json(String($0)) }.compactMap { line -> String? in
            guard let key = line["key"] as? String, let value = line["value"] as? Int else { return nil }
            return "\(key) \(value)"
        }
        #expect(expected.count == combos.map { $0.split(separator: "+").count * 2 }.reduce(0, +), "\(dry.output)")

        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", rules.path, device.node])
        defer { _ = engine.terminate() }
        var keyboard: String?
        #expect(KernelGuest.wait(upTo: 30) { keyboard = KernelGuest.node(named: "gesturemap virtual keyboard"); return keyboard != nil },
                "no virtual keyboard at start: \(engine.stderr)")
        let node = try #require(keyboard)
        let reader = try Child(["/usr/bin/evemu-record", node])
        defer { _ = reader.terminate() }
        #expect(reader.wait(upTo: 20) { out, _ in out.contains("N: gesturemap virtual keyboard") }, "\(reader.stderr)")
        #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        try device.play(swipe)
        let pressed = { (out: String) in out.split(separator: "\n").filter { $0.contains("EV_KEY") }.count }
        #expect(reader.wait(upTo: 20) { out, _ in pressed(out) >= expected.count }, "\(reader.stdout)\n\(engine.stderr)")
        usleep(300_000)
        let typed = reader.stdout.split(separator: "\n").compactMap { line -> String? in
            // E: 0.000001 0001 001d 0001	# EV_KEY / KEY_LEFTCTRL            1
            guard line.contains("# EV_KEY /"), let comment = line.split(separator: "#").last else { return nil }
            let words = comment.split(separator: " ").filter { !$0.isEmpty && $0 != "/" }
            guard words.count >= 3 else { return nil }
            return "\(words[1]) \(words[2])"
        }
        #expect(typed == expected, "read back \(typed), meant \(expected)")
    }

    /// Every `key("...")` in the examples, once each, in their order.
    static func exampleKeyCombos() throws -> [String] {
        let dir = Binary.packageRoot.appendingPathComponent("examples")
        var combos: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".lua") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let regex = try NSRegularExpression(pattern: #"key\("([^"]+)"\)"#)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text), !combos.contains(String(text[range])) { combos.append(String(text[range])) }
            }
        }
        return combos
    }

    // MARK: --grab, access, the udev rule

    @Test("--grab: another reader of the device sees nothing, and the engine sees the swipe; without it both see it")
    func grab() throws {
        for grabbing in [true, false] {
            let device = try EvemuDevice(description: TouchPanel.description())
            let engine = try KernelGuest.gesturemap(["run", "--rules", Self.pager, device.node] + (grabbing ? ["--grab"] : []))
            defer { _ = engine.terminate() }
            #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
            // Another reader, as a desktop is: it opens the node and reads what comes.
            let other = open(device.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            #expect(other >= 0)
            defer { close(other) }
            try device.play(Self.swipe(grabbing ? "grabbed" : "shared"))
            #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stderr)")
            usleep(300_000)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var bytes = 0
            while case let n = read(other, &buffer, buffer.count), n > 0 { bytes += n }
            let seen = bytes / 24
            if grabbing {
                #expect(seen == 0, "grabbed, yet another reader saw \(seen) events")
            } else {
                #expect(seen > 30, "not grabbed, another reader saw only \(seen) events")
            }
            device.remove()
        }
    }

    @Test("a user who may not read the devices gets a message that names the fix, and exit 69, named or found")
    func noAccess() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let nobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        let fix = "permission denied; add yourself to the input group (sudo usermod -aG input $USER, then log in again) or install the udev rule examples/udev/70-gesturemap.rules"
        let named = try KernelGuest.gesturemap(["run", device.node], as: nobody)
        #expect(named.waitForExit(upTo: 30) == 69)
        #expect(named.stderr.contains("gesturemap: \(device.node): " + fix), "\(named.stderr)")

        let found = try KernelGuest.gesturemap(["run"], as: nobody)
        #expect(found.waitForExit(upTo: 30) == 69)
        #expect(found.stderr.contains("gesturemap: no touch device can be read: "), "\(found.stderr)")
        #expect(found.stderr.contains(fix), "\(found.stderr)")
    }

    @Test("the shipped udev rule, applied by the real udevd: touch devices and uinput are the input group's, mode 0660, and the group can read them")
    func udevRule() throws {
        let device = try EvemuDevice(description: TouchPanel.description())
        let properties = try KernelGuest.run("udevadm", ["info", "--query=property", device.node]).output
        #expect(properties.contains("ID_INPUT_TOUCHSCREEN=1"), "\(properties)")
        for node in [device.node, "/dev/uinput"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: node)
            #expect(attributes[.groupOwnerAccountName] as? String == "input", "\(node): \(attributes)")
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o660, "\(node): \(attributes)")
        }
        // A member of the input group, and no one else, reads it.
        let member = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=input"]
        let engine = try KernelGuest.gesturemap(["run", "--rules", Self.pager, device.node], as: member)
        defer { _ = engine.terminate() }
        #expect(Self.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        try device.play(Self.swipe("member"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)\n\(engine.stderr)")
    }
}
