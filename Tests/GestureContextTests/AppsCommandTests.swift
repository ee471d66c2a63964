import GestureCore
import Foundation
import GestureContext
import Testing

/// `gesturemap apps`, the real binary, as a user runs it to find names for rules.
@Suite("gesturemap apps", .serialized)
struct AppsCommandTests {
    static let binary: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("gesturemap").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/gesturemap").path
    }()

    /// The version as Sources/gesturemap/Version.swift writes it, the one place
    /// it is kept (`let releaseVersion = "…"`); nil when that line cannot be read.
    static let releaseVersion: String? = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/gesturemap/Version.swift")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let prefix = "let releaseVersion = \""
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            let value = line.dropFirst(prefix.count).prefix { $0 != "\"" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }()

    /// Starts `gesturemap apps ARGS`, lets `act` change the focus, and returns
    /// what it printed once `lines` lines have come (or 10 s have passed).
    func watch(_ arguments: [String], environment: [String: String], lines: Int, act: () -> Void) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AppsCommandTests.binary)
        process.arguments = ["apps"] + arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP"] { env[key] = nil }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var text = ""
        func read(until count: Int) {
            let deadline = Date().addingTimeInterval(10)
            while text.split(separator: "\n").count < count, Date() < deadline {
                var pfd = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = Glibc.read(pfd.fd, &buffer, buffer.count)
                if n <= 0 { return }
                text += String(decoding: buffer[0..<n], as: UTF8.self)
            }
        }
        read(until: 1)
        act()
        read(until: lines)
        return text.split(separator: "\n").map(String.init)
    }

    @Test("--watch --json under Xvfb and openbox prints each focus change")
    func watchX11() throws {
        let x = try XServer(windowManager: true)
        defer { x.stop() }
        let message = try x.open("xmessage", ["-name", "hello", "hello"], windowClass: "Xmessage")
        let calculator = try x.open("xcalc", [], windowClass: "XCalc")
        x.activate(message)
        let lines = try watch(["--watch", "--json"], environment: ["DISPLAY": x.display], lines: 3) {
            x.activate(calculator)
            usleep(300_000)
            x.activate(message)
        }
        #expect(lines == [
            #"{"source":"x11","app":{"id":"Xmessage","title":"hello","pid":null}}"#,
            #"{"source":"x11","app":{"id":"XCalc","title":"Calculator","pid":null}}"#,
            #"{"source":"x11","app":{"id":"Xmessage","title":"hello","pid":null}}"#,
        ])
    }

    @Test("--watch --json under a headless sway prints each focus change")
    func watchSway() throws {
        let sway = try SwaySession()
        defer { sway.stop() }
        try sway.openWindow(appID: "pdfviewer")
        try sway.openWindow(appID: "slides")
        sway.focus(appID: "pdfviewer")
        let lines = try watch(["--watch", "--json"], environment: ["SWAYSOCK": sway.socket], lines: 3) {
            sway.focus(appID: "slides")
            sway.focus(appID: "pdfviewer")
        }
        let ids = lines.compactMap { (try? JSONValue.parse($0))?["app"]?["id"]?.string }
        #expect(ids == ["pdfviewer", "slides", "pdfviewer"])
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"source":"sway","app":{"id":"#) })
    }

    @Test("--json without --watch: the focused app and every window")
    func listing() throws {
        let hypr = try HyprlandStandIn()
        defer { hypr.stop() }
        let a = hypr.open("firefox", title: "Start", pid: 11)
        _ = hypr.open("evince", title: "b.pdf", pid: 12)
        hypr.focus(a)
        let lines = try watch(["--json"], environment: ["HYPRLAND_INSTANCE_SIGNATURE": hypr.signature, "XDG_RUNTIME_DIR": hypr.runtimeDirectory],
                              lines: 1) {}
        #expect(lines == [#"{"source":"hyprland","focused":{"id":"firefox","title":"Start","pid":11},"windows":[{"id":"firefox","title":"Start","pid":11,"focused":true},{"id":"evince","title":"b.pdf","pid":12,"focused":false}]}"#])
    }

    @Test("no session at all: exit 69 and one line saying why")
    func noSession() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AppsCommandTests.binary)
        process.arguments = ["apps"]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        #expect(text == "gesturemap apps: no app source: no desktop session found: none of WAYLAND_DISPLAY, DISPLAY, SWAYSOCK, I3SOCK or HYPRLAND_INSTANCE_SIGNATURE is set (a system service or a console?); start gesturemap inside the desktop session, or choose one with --app-source NAME or --app-command CMD\n")
    }

    @Test("a bad --app-source value is a usage error listing the names")
    func usage() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AppsCommandTests.binary)
        process.arguments = ["apps", "--app-source", "mutter"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(text.hasPrefix("gesturemap apps: --app-source takes one of x11, sway, i3, hyprland, wlroots, gnome, kde, command, none, not \"mutter\"\n"))
    }

    @Test("a kiosk without libxcb, libwayland-client or libdbus: gesturemap runs, and each source says which library is missing")
    func librariesHidden() throws {
        guard getuid() == 0, let unshare = which("unshare") else { try Test.cancel("hiding libraries needs root and unshare (util-linux)") }
        let libraries = ["libxcb.so.1", "libwayland-client.so.0", "libdbus-1.so.3"]
        let paths = run("/sbin/ldconfig", ["-p"]).output.split(separator: "\n").compactMap { line -> String? in
            guard libraries.contains(where: { line.contains($0 + " ") }) else { return nil }
            return line.split(separator: " ").last.map(String.init)
        }
        guard paths.count >= 3 else { try Test.cancel("the three libraries are not all installed here, so there is nothing to hide") }
        let version = try #require(AppsCommandTests.releaseVersion,
                                   "Sources/gesturemap/Version.swift has no line `let releaseVersion = \"…\"` to read the version from; put the version back there")
        // In a private mount namespace, each library file reads as empty.
        let hide = paths.map { "mount --bind /dev/null \($0)" }.joined(separator: " && ")
        let script = hide + " && " + ["--version", "apps --app-source x11", "apps --app-source wlroots", "apps --app-source gnome"]
            .map { "\(AppsCommandTests.binary) \($0) 2>&1; echo status $?" }.joined(separator: "; ")
        let result = run(unshare, ["-m", "/bin/sh", "-c", script],
                         environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        #expect(result.output.split(separator: "\n").map(String.init) == [
            "gesturemap \(version)", "status 0",
            "gesturemap: app source x11: libxcb (X11) is not installed (libxcb.so.1 could not be loaded); install Debian's libxcb1; g.app is nil until it works (trying again every few seconds)",
            "status 69",
            "gesturemap: app source wlroots: libwayland-client (Wayland) is not installed (libwayland-client.so.0 could not be loaded); install Debian's libwayland-client0; g.app is nil until it works (trying again every few seconds)",
            "status 69",
            "gesturemap: app source gnome: libdbus (D-Bus) is not installed (libdbus-1.so.3 could not be loaded); install Debian's libdbus-1-3; g.app is nil until it works (trying again every few seconds)",
            "status 69",
        ])
    }
}
