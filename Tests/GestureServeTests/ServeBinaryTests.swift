import Foundation
import Testing

/// The attacks of a stranger on the LAN, against the built binary over
/// loopback sockets (127.0.0.2 and on standing for other machines).
@Suite("serve against strangers, through the binary", .serialized)
struct ServeBinaryTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func pageRequest(_ serve: ServeProcess) -> String {
        "GET /?k=\(serve.token) HTTP/1.1\r\nHost: 127.0.0.1:\(serve.port)\r\n\r\n"
    }

    static func upgrade(_ serve: ServeProcess) -> String {
        "GET /ws?k=\(serve.token) HTTP/1.1\r\nHost: 127.0.0.1:\(serve.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    @Test("eight idle strangers that each sent one byte, replaced as they go, do not keep the phone out")
    func idleStrangers() throws {
        let serve = try ServeProcess([])
        var strangers: [LoopbackClient] = []
        for _ in 0..<8 {
            let c = LoopbackClient(port: serve.port, from: 2)
            c.send("G")
            strangers.append(c)
        }
        usleep(300_000)
        for (i, c) in strangers.enumerated() where c.isClosedNow {
            strangers[i] = LoopbackClient(port: serve.port, from: 2)
            strangers[i].send("G")
        }
        let phone = LoopbackClient(port: serve.port)
        phone.send(Self.pageRequest(serve))
        #expect(Self.text(phone.receive(atLeast: 17)).hasPrefix("HTTP/1.1 200 OK"))
        withExtendedLifetime(strangers) {}
    }

    /// Lowers serve's limit on open files so that `free` more fit, with prlimit(1).
    static func limitFiles(_ serve: ServeProcess, free: Int) throws -> Int {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else {
            try Test.cancel("needs prlimit (util-linux) to lower serve's limit on open files")
        }
        let used = serve.descriptors
        var limit = 0
        var left = free
        while left > 0 || used.contains(limit) {
            if !used.contains(limit) { left -= 1 }
            limit += 1
        }
        let prlimit = Process()
        prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        prlimit.arguments = ["--pid", "\(serve.process.processIdentifier)", "--nofile=\(limit):\(limit)"]
        try prlimit.run()
        prlimit.waitUntilExit()
        #expect(prlimit.terminationStatus == 0)
        return limit
    }

    @Test("out of descriptors: strangers' heads give theirs to the phone; with pages holding them all, serve waits idle and says so once")
    func descriptorLimit() throws {
        let serve = try ServeProcess(["--max-clients", "16"])
        let free = 6
        let limit = try Self.limitFiles(serve, free: free)

        // Strangers from as many addresses as there are descriptors left, and more.
        var strangers: [LoopbackClient] = []
        for i in 0..<(2 * free) {
            let c = LoopbackClient(port: serve.port, from: UInt8(2 + i))
            c.send("G")
            strangers.append(c)
        }
        usleep(300_000)
        let phone = LoopbackClient(port: serve.port)
        phone.send(Self.pageRequest(serve))
        #expect(Self.text(phone.receive(atLeast: 17)).hasPrefix("HTTP/1.1 200 OK"))
        strangers.removeAll()
        usleep(300_000)

        // Pages take every descriptor left; strangers pile up behind them.
        var pages: [LoopbackClient] = []
        for _ in 0..<free {
            let page = LoopbackClient(port: serve.port)
            page.send(Self.upgrade(serve))
            #expect(Self.text(page.receive(atLeast: 12, waitingUpTo: 8)).hasPrefix("HTTP/1.1 101"))
            pages.append(page)
        }
        for i in 0..<20 {
            let c = LoopbackClient(port: serve.port, from: UInt8(2 + i))
            c.send("G")
            strangers.append(c)
        }
        usleep(300_000)
        let before = serve.cpuSeconds
        usleep(2_000_000)
        let spent = serve.cpuSeconds - before
        // Polled again at once on each failure, as before, it would spend the whole 2 s.
        #expect(spent < 0.4, "serve used \(spent) s of CPU in 2 s while out of descriptors")
        let said = serve.stderrLines.filter { $0.hasPrefix("gesturemap: cannot accept a connection") }
        #expect(said == ["gesturemap: cannot accept a connection: Too many open files (this process may have \(limit) open: raise the limit with ulimit -n,"
            + " or serve fewer pages); new connections wait, tried again every 1.0 s (said once)"])

        // A page goes: the phone gets in again, past the strangers.
        // Serve tries again every 1.0 s: the request waits for it.
        pages.removeFirst().hangUp()
        let again = LoopbackClient(port: serve.port)
        again.send(Self.pageRequest(serve))
        #expect(Self.text(again.receive(atLeast: 17, waitingUpTo: 8)).hasPrefix("HTTP/1.1 200 OK"))
        withExtendedLifetime((strangers, pages)) {}
    }

    @Test("with the token, but another Host or a cross-site Origin: refused, the reason on stderr")
    func hostAndOrigin() throws {
        let serve = try ServeProcess([])
        let rebound = LoopbackClient(port: serve.port)
        rebound.send("GET /?k=\(serve.token) HTTP/1.1\r\nHost: rebind.example:\(serve.port)\r\n\r\n")
        #expect(Self.text(rebound.receive(atLeast: 1000)).hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
        let crossSite = LoopbackClient(port: serve.port)
        crossSite.send(Self.upgrade(serve).replacingOccurrences(of: "\r\n\r\n", with: "\r\nOrigin: http://evil.example\r\n\r\n"))
        #expect(Self.text(crossSite.receive(atLeast: 1000)).hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        let lines = serve.stderrLines(within: 5) { lines in lines.contains { $0.hasPrefix("gesturemap: refused a request for /ws") } }
        #expect(lines.contains("gesturemap: refused a request for / from \(rebound.name): its Host is \"rebind.example:\(serve.port)\", not 127.0.0.1:\(serve.port)"
            + " (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"), "\(lines)")
        #expect(lines.contains("gesturemap: refused a request for /ws from \(crossSite.name): its Origin is \"http://evil.example\", not http://127.0.0.1:\(serve.port)"
            + " (a script of another site)"), "\(lines)")
    }

    @Test("a page message with a huge but allowed time, then taps: each tap is still a tap")
    func hugePageTime() throws {
        let serve = try ServeProcess([])
        let page = LoopbackClient(port: serve.port)
        page.send(Self.upgrade(serve))
        #expect(Self.text(page.receive(atLeast: 129)).hasPrefix("HTTP/1.1 101"))
        page.sendText(#"{"type":"surface","width":390,"height":844,"ratio":3}"#)
        var t = 1000.0
        func tap() {
            page.sendText(#"{"type":"touchstart","t":\#(t),"touches":[[1,100,100]]}"#)
            usleep(50_000)
            t += 50
            page.sendText(#"{"type":"touchend","t":\#(t),"touches":[[1,100,100]]}"#)
            t += 450
            usleep(450_000)
        }
        tap()
        #expect(serve.stdoutLines(atLeast: 1, within: 3).count == 1)
        page.sendText(#"{"type":"touchmove","t":1e13,"touches":[[9,1,1]]}"#)
        usleep(100_000)
        for _ in 0..<3 { tap() }
        let lines = serve.stdoutLines(atLeast: 4, within: 3)
        #expect(lines.count == 4 && lines.allSatisfy { $0.hasPrefix("{\"action\":\"tapped\",") }, "\(lines)")
        // The jump is the page's 1e10 s less the few seconds the clocks ran meanwhile.
        let note = serve.stderrLines.filter { $0.hasPrefix("gesturemap: phone \(page.name): the page's clock moved 99999999") }
        #expect(note.count == 1 && note.allSatisfy { $0.hasSuffix(" s from this machine's; its touches are timed from their arrival again (said once a page)") },
                "\(serve.stderrLines)")
    }

    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

    /// 40 strangers on 127.0.0.2 open TLS handshakes without end for `seconds`;
    /// a third of the way in, the phone on 127.0.0.1 asks for the page.
    static let handshakeFlood = """
    import json, socket, ssl, sys, threading, time
    port, token, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    done, lock, end = [0], threading.Lock(), time.monotonic() + seconds
    def stranger():
        while time.monotonic() < end:
            try:
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                s.settimeout(max(0.05, end - time.monotonic()))
                s.connect(("127.0.0.1", port))
                t = context.wrap_socket(s, server_hostname="127.0.0.1")
                with lock: done[0] += 1
                t.close()
            except OSError:
                time.sleep(0.01)
    threads = [threading.Thread(target=stranger, daemon=True) for _ in range(40)]
    for t in threads: t.start()
    time.sleep(seconds / 3)
    start, status = time.monotonic(), ""
    try:
        t = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1")
        t.sendall(("GET /?k=%s HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % (token, port)).encode())
        status = t.recv(64).decode(errors="replace").split("\\r\\n")[0]
    except OSError as e:
        status = "failed: %s" % e
    took = time.monotonic() - start
    for t in threads: t.join()
    print(json.dumps({"handshakes": done[0], "status": status, "seconds": took}))
    """

    @Test("a flood of TLS handshakes from strangers: at most 10 a second are done, and the phone gets the page meanwhile",
          .enabled(if: hasPython && hasOpenSSL, "needs python3 and openssl (to make a certificate)"))
    func handshakeFlood() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturemap-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        let serve = try ServeProcess(["--cert", cert, "--key", key])
        let seconds = 3.0
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", Self.handshakeFlood, "\(serve.port)", serve.token, "\(seconds)"]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(Self.text(Array(data)))")
        let handshakes = try #require(result["handshakes"] as? Int)
        #expect(result["status"] as? String == "HTTP/1.1 200 OK", "\(result)")
        // 10 a second and one to start; the phone's own take some of them.
        #expect(handshakes <= Int(seconds * 10) + 1, "\(result)")
        #expect(handshakes > 0, "\(result)")
    }
}
