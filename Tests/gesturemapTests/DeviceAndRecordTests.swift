#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Device code exercised through files, FIFOs and pipes: this machine has no
/// input devices, so the ioctl paths must fail with clear messages.
@Suite("Devices, FIFOs and record", .serialized)
struct DeviceAndRecordTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("devices: no input directory exits 69 and says why")
    func noDevices() throws {
        let missing = try Self.scratch().appendingPathComponent("input").path
        let result = try Binary.run(["devices"], environment: ["GESTUREMAP_INPUT_DIR": missing])
        #expect(result.status == 69)
        #expect(result.errorLines == ["gesturemap devices: \(missing) does not exist: this system shows no input devices (a container or a VM without them?); give a recording or pipe events in instead"])
    }

    @Test("devices: nodes that are not evdev devices are named, and the exit is 69")
    func notEvdev() throws {
        let dir = try Self.scratch()
        let node = dir.appendingPathComponent("event3").path
        #expect(mkfifo(node, 0o600) == 0)
        let result = try Binary.run(["devices"], environment: ["GESTUREMAP_INPUT_DIR": dir.path])
        #expect(result.status == 69)
        #expect(result.errorLines.first == "gesturemap devices: no input devices in \(dir.path)")
    }

    @Test("run with no input, standard input /dev/null (as systemd gives a service) and no device yet: says so once and waits")
    func runWaitsForDevices() throws {
        let parent = try Self.scratch()
        let missing = parent.appendingPathComponent("input").path
        var environment = ProcessInfo.processInfo.environment
        environment["GESTUREMAP_INPUT_DIR"] = missing
        let run = try LiveRun(["run", "-v"], stdin: .nullDevice, environment: environment)
        let waiting = "gesturemap: \(missing) does not exist yet (no input device since boot); waiting for a touch device to be plugged in"
        #expect(run.wait(upTo: 10) { _, err in err.contains(waiting) }, "\(run.stderr)")
        #expect(run.stderr.contains("gesturemap: standard input is /dev/null, not events: reading the touch devices"), "\(run.stderr)")
        // The directory appears with a node that is no touch device: still waiting, and quiet.
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: false)
        #expect(mkfifo(missing + "/event0", 0o600) == 0)
        #expect(!run.wait(upTo: 1) { _, _ in !run.process.isRunning })
        let status = run.terminate()
        #expect(run.process.terminationReason == .uncaughtSignal && status == SIGTERM)
        #expect(run.stderr.components(separatedBy: "waiting for a touch device").count == 2, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("run with no input from a terminal, where the user may not read the devices, exits 69 naming the fix")
    func runWithoutAccess() throws {
        // Root reads every node: the run is made as a user with no privileges.
        let dir = try Self.scratch()
        #expect(chmod(dir.path, 0o755) == 0)
        let node = dir.appendingPathComponent("event0").path
        #expect(FileManager.default.createFile(atPath: node, contents: nil, attributes: [.posixPermissions: 0o000]))
        let result = try Binary.run(["run"], environment: ["GESTUREMAP_INPUT_DIR": dir.path], terminalStdin: true, unprivileged: true)
        #expect(result.status == 69)
        #expect(result.errorLines.first?.contains("permission denied; the udev rule 70-gesturemap.rules lets the user logged in at the seat read touch devices") == true, "\(result.stderr)")
    }

    @Test("run as a service (standard input /dev/null) where the user may not read the devices yet waits for access, saying so once")
    func serviceWaitsForAccess() throws {
        let dir = try Self.scratch()
        #expect(chmod(dir.path, 0o755) == 0)
        let node = dir.appendingPathComponent("event0").path
        #expect(FileManager.default.createFile(atPath: node, contents: nil, attributes: [.posixPermissions: 0o000]))
        var environment = ProcessInfo.processInfo.environment
        environment["GESTUREMAP_INPUT_DIR"] = dir.path
        let run = try LiveRun(["run"], stdin: .nullDevice, environment: environment, command: Binary.unprivilegedPrefix)
        #expect(run.wait(upTo: 20) { _, err in err.contains("waiting for access") }, "\(run.stderr)")
        // Still there: logind's grant, or a group, may yet come.
        #expect(!run.wait(upTo: 1) { _, _ in !run.process.isRunning })
        let status = run.terminate()
        #expect(run.process.terminationReason == .uncaughtSignal && status == SIGTERM)
        #expect(run.stderr.components(separatedBy: "waiting for access").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("gesturemap: no touch device can be read yet (\(node): permission denied;"), "\(run.stderr)")
    }

    @Test("a device path that is not an evdev node is refused with 69")
    func notADevice() throws {
        let result = try Binary.run(["run", "/dev/null"])
        #expect(result.status == 69)
        #expect(result.errorLines.first?.hasPrefix("gesturemap: /dev/null: not an evdev input device") == true)
    }

    @Test("record --from converts to raw bytes, which replay like the NDJSON they came from")
    func rawRoundTrip() throws {
        let dir = try Self.scratch()
        let ndjson = dir.appendingPathComponent("in.ndjson")
        let raw = dir.appendingPathComponent("in.raw")
        let synth = try Binary.run(["synth", "two-finger swipe left", "3-finger tap", "long press", "--seed", "8"])
        try synth.stdout.write(to: ndjson, atomically: true, encoding: .utf8)
        let rules = try Binary.temporaryFile("r.lua", """
        on("2-finger swipe left", function(g) emit("swipe") end)
        on("3-finger tap", function(g) emit("tap") end)
        on("long press", function(g) emit("hold") end)

        """)
        #expect(try Binary.run(["record", "--from", ndjson.path, "--format", "raw", "-o", raw.path]).status == 0)
        let fromNDJSON = try Binary.run(["run", "--rules", rules.path, ndjson.path])
        let fromRaw = try Binary.run(["run", "--rules", rules.path, "--resolution", "16", raw.path])
        #expect(fromNDJSON.lines.count == 3)
        #expect(fromRaw.stdout == fromNDJSON.stdout)
    }

    @Test("raw bytes through a FIFO read the same way as from a file")
    func fifo() throws {
        let dir = try Self.scratch()
        let fifo = dir.appendingPathComponent("event0").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let synth = try Binary.run(["synth", "two-finger swipe left", "--seed", "3"])
        let ndjson = dir.appendingPathComponent("in.ndjson")
        try synth.stdout.write(to: ndjson, atomically: true, encoding: .utf8)
        let raw = dir.appendingPathComponent("in.raw")
        #expect(try Binary.run(["record", "--from", ndjson.path, "--format", "raw", "-o", raw.path]).status == 0)
        let bytes = try Data(contentsOf: raw)
        // A writer on the FIFO, as a device node would be read.
        Thread.detachNewThread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(bytes)
                try? handle.close()
            }
        }
        let result = try Binary.run(["run", "--resolution", "16", fifo])
        #expect(result.status == 0)
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["next_page"])
    }

    @Test("record --from writes NDJSON with a header that reads back to the same gestures")
    func ndjsonRoundTrip() throws {
        let evemu = try Binary.run(["record", "--from", "-", "--format", "evemu"], stdin: Data(try Binary.run(["synth", "swipe right", "double tap", "--seed", "2"]).stdout.utf8))
        #expect(evemu.stdout.hasPrefix("# EVEMU 1.3\n"))
        let back = try Binary.run(["record", "--from", "-"], stdin: Data(evemu.stdout.utf8))
        #expect(back.lines.first?.hasPrefix(#"{"device":{"name":"gesturemap synth panel","x":{"min":0,"max":4095,"resolution":16}"#) == true)
        let rules = try Binary.temporaryFile("r.lua", "on(\"swipe right\", function() emit(\"right\") end)\non(\"double tap\", function() emit(\"double\") end)\n")
        let result = try Binary.run(["run", "--rules", rules.path, "-"], stdin: Data(back.stdout.utf8))
        #expect(result.lines.compactMap { Binary.json($0)?["action"] as? String } == ["right", "double"])
    }

    @Test("record without a device on a machine without devices exits 69")
    func recordWithoutDevice() throws {
        let missing = try Self.scratch().appendingPathComponent("input").path
        let result = try Binary.run(["record"], environment: ["GESTUREMAP_INPUT_DIR": missing])
        #expect(result.status == 69)
    }
}
