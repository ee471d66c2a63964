#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The live paths through a real kernel: the shipped service's start, hotplug
/// and --grab (SYN_DROPPED, keys and access have suites of their own). One at
/// a time: runs with no input read every touch device there is.
@Suite("Live paths through a real kernel", .serialized, .enabled(if: KernelGuest.isInside, KernelGuest.reason))
struct KernelLiveTests {
    // MARK: The shipped service

    @Test("the shipped unit's command, with standard input /dev/null and no desktop, finds ~/.config/gesturemap/rules.lua, reads the touch devices and turns a page")
    func shippedService() throws {
        let unit = try String(contentsOf: Binary.packageRoot.appendingPathComponent("examples/systemd/gesturemap.service"), encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        let home = try Binary.temporaryDirectory()
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/gesturemap"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: LiveEngine.pager, toPath: home.appendingPathComponent(".config/gesturemap/rules.lua").path)
        // %h is the user's home; the binary is this build's, wherever the unit says it is installed.
        var words = execStart.split(separator: " ").map { $0.replacingOccurrences(of: "%h", with: home.path) }
        #expect(words.first == "/usr/local/bin/gesturemap")
        words.removeFirst()
        #expect(words == ["run"])

        let device = try EvemuDevice(description: TouchPanel.description())
        // A user service's environment: no DISPLAY, no WAYLAND_DISPLAY.
        let service = try KernelGuest.gesturemap(words, environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "LANG": "C.UTF-8"])
        defer { _ = service.terminate() }
        #expect(LiveEngine.waitUntilOpened(device.node, by: service), "\(service.stderr)")
        try device.play(LiveEngine.swipe())
        #expect(service.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(service.stdout)\n\(service.stderr)")
        #expect(service.isRunning)
        #expect(LiveEngine.actions(service) == ["next_page"])
        // The pager's page, which the built-in rules do not give: the user's rules ran.
        #expect(service.outputLines.compactMap(Binary.json).first?["page"] as? Int == 2, "\(service.stdout)")
    }

    // MARK: Hotplug

    @Test("started with no touch device it waits; a device plugged in later is read, and read again after it is unplugged and plugged in")
    func hotplug() throws {
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", LiveEngine.pager])
        defer { _ = engine.terminate() }
        #expect(engine.wait(upTo: 20) { _, err in err.contains("waiting for a touch device to be plugged in") }, "\(engine.stderr)")
        #expect(engine.isRunning)

        var device = try EvemuDevice(description: TouchPanel.description())
        #expect(engine.wait(upTo: 20) { _, err in err.contains("found \(device.node)") }, "\(engine.stderr)")
        try device.play(LiveEngine.swipe("first"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)")

        device.remove()
        #expect(engine.wait(upTo: 20) { _, err in err.contains("\(device.node) was unplugged") }, "\(engine.stderr)")
        device = try EvemuDevice(description: TouchPanel.description())
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
        try device.play(LiveEngine.swipe("again", dx: 60))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("prev_page") }, "\(engine.stdout)")
        #expect(LiveEngine.actions(engine) == ["next_page", "prev_page"])
    }

    @Test("unplugged in the middle of a stroke that only its lift would decide: no gesture; the same stroke lifted is a swipe")
    func unplugMidStroke() throws {
        // 64 mm at 80 mm/s: well above swipe_min_speed (50 mm/s) and well
        // below swipe_commit_speed (120 mm/s), so its lift decides it, and
        // the unplug comes before any lift.
        func stroke(lifted: Bool) -> TouchPanel.Script {
            var script = TouchPanel.Script()
            script.land([(x: 200, y: 60), (x: 200, y: 90)])
            script.move(dx: -64, dy: 0, frames: 80, frame: 0.01)
            if lifted { script.lift() }
            return script
        }
        let device = try EvemuDevice(description: TouchPanel.description())
        let engine = try KernelGuest.gesturemap(["run", "-v", "--rules", LiveEngine.pager, device.node])
        defer { _ = engine.terminate() }
        #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")

        // The control: lifted, the stroke is a page turn.
        try device.play(stroke(lifted: true).file("lifted.evemu"))
        #expect(engine.wait(upTo: 20) { out, _ in out.contains("next_page") }, "\(engine.stdout)\n\(engine.stderr)")
        #expect(LiveEngine.actions(engine) == ["next_page"])

        // The same stroke played to its last move, the fingers still down; then unplugged.
        try device.play(stroke(lifted: false).file("unlifted.evemu"))
        device.remove()
        #expect(engine.wait(upTo: 20) { _, err in err.contains("\(device.node) was unplugged") }, "\(engine.stderr)")
        usleep(500_000)
        #expect(LiveEngine.actions(engine) == ["next_page"], "\(engine.stdout)")
        #expect(engine.isRunning)
    }

    @Test("--grab: another reader of the device sees nothing, and the engine sees the swipe; without it both see it")
    func grab() throws {
        for grabbing in [true, false] {
            let device = try EvemuDevice(description: TouchPanel.description())
            let engine = try KernelGuest.gesturemap(["run", "--rules", LiveEngine.pager, device.node] + (grabbing ? ["--grab"] : []))
            defer { _ = engine.terminate() }
            #expect(LiveEngine.waitUntilOpened(device.node, by: engine), "\(engine.stderr)")
            // Another reader, as a desktop is: it opens the node and reads what comes.
            let other = open(device.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            #expect(other >= 0)
            defer { close(other) }
            try device.play(LiveEngine.swipe(grabbing ? "grabbed" : "shared"))
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
}
