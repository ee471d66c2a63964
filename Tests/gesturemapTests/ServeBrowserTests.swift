import Foundation
import Testing

/// `gesturemap serve` in a real browser: scripts/serve-browser.py starts the
/// server and Debian's headless chromium, drives the page over DevTools, and
/// stops both by PID. Each scenario prints "ok:" and "FAIL:" lines.
@Suite("serve in a browser", .serialized)
struct ServeBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// The script's lines, after it ran SCENARIO to the end.
    static func scenario(_ name: String) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Binary.packageRoot.appendingPathComponent("scripts/serve-browser.py").path, name, Binary.path]
        process.currentDirectoryURL = Binary.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    static func expectPassed(_ name: String, _ checks: [String]) throws {
        let (status, lines) = try scenario(name)
        let failures = lines.filter { $0.hasPrefix("FAIL:") }
        #expect(status == 0 && failures.isEmpty, "\(lines.joined(separator: "\n"))")
        // Each check the scenario promises was made, and passed.
        for check in checks {
            #expect(lines.contains { $0.hasPrefix("ok: " + check) }, "no \"ok: \(check)\" in:\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test("a two-finger swipe left on the page in headless chromium is the rule's action on stdout, and the page names it",
          .enabled(if: chromium != nil && hasPython, "needs chromium (apt-get install chromium) and python3"))
    func swipe() throws {
        try Self.expectPassed("swipe", ["the page connects", "a two-finger swipe left on the page is the rule's action",
                                        "the page shows the gesture's name"])
    }

    @Test("a missing or wrong token gets 403 and nothing else; a second page beyond --max-clients is refused",
          .enabled(if: chromium != nil && hasPython, "needs chromium (apt-get install chromium) and python3"))
    func refusals() throws {
        try Self.expectPassed("refusals", ["the page without a token: 403", "the page with a wrong token: 403",
                                           "the WebSocket without a token: 403", "the WebSocket with a wrong token: 403",
                                           "a second page beyond --max-clients 1 is refused", "the refusal is reported on stderr"])
    }

    @Test("a tab closed with two fingers down cancels its touches: no gesture is made up",
          .enabled(if: chromium != nil && hasPython, "needs chromium (apt-get install chromium) and python3"))
    func closedTab() throws {
        try Self.expectPassed("closed-tab", ["the engine sees the page go", "no gesture is made up from the touches the tab left",
                                            "the engine sees the dropped connection go",
                                            "no gesture is made up from a connection dropped with fingers down", "the engine goes on"])
    }

    static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

    @Test("--cert/--key: 403 and the page over HTTPS, a swipe over WSS from a client and from chromium, plain HTTP refused",
          .enabled(if: hasPython && hasOpenSSL, "needs python3 and openssl (to make a certificate)"))
    func tls() throws {
        var checks = ["over HTTPS without the token: 403", "over HTTPS with the token: the page", "plain HTTP to the TLS port gets nothing",
                      "a swipe over WSS is the rule's action", "the gesture's name comes back over WSS"]
        if Self.chromium != nil { checks += ["chromium's page connects over WSS", "a swipe in chromium over HTTPS is the rule's action"] }
        try Self.expectPassed("tls", checks)
    }

    @Test("a page hidden (the phone locked) with fingers down cancels them: the lift after makes no swipe",
          .enabled(if: chromium != nil && hasPython, "needs chromium (apt-get install chromium) and python3"))
    func hiddenPage() throws {
        try Self.expectPassed("hidden-page", ["touches of a page that was hidden are cancelled", "the page works again once shown"])
    }

    @Test("a flood is cut off at the rate cap with flat memory, a malformed message is reported once, and a page after them still works",
          .enabled(if: hasPython, "needs python3"))
    func flood() throws {
        try Self.expectPassed("flood", ["a malformed message closes the connection", "reported once",
                                        "a flood of", "memory stays flat", "its swipe is the rule's action"])
    }
}
