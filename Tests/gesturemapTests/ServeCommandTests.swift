import Foundation
import Testing

/// `gesturemap serve`'s own options and its refusals at start, through the binary.
@Suite("serve's command line")
struct ServeCommandTests {
    @Test("usage errors say what --listen, --max-clients and --cert take", arguments: [
        (["--listen", "localhost:80"], "gesturemap serve: --listen takes an IPv4 address and a port, as 192.168.1.5:8023 or 127.0.0.1:0, not \"localhost:80\""),
        (["--listen=1.2.3.4:99999"], "gesturemap serve: --listen takes an IPv4 address and a port, as 192.168.1.5:8023 or 127.0.0.1:0, not \"1.2.3.4:99999\""),
        (["--max-clients", "0"], "gesturemap serve: --max-clients takes a number of pages from 1 to 16, not \"0\""),
        (["--cert", "c.pem"], "gesturemap serve: --cert and --key go together: the certificate and its private key, both PEM files"),
        (["--frobnicate"], "gesturemap serve: unknown option --frobnicate"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try Binary.run(["serve"] + arguments)
        #expect(result.status == 64)
        #expect(result.errorLines == [message, "see: gesturemap serve --help"])
    }

    @Test("help lists serve's options and points to run's")
    func help() throws {
        let result = try Binary.run(["serve", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--listen ADDR[:PORT]") && result.stdout.contains("--max-clients N"))
        #expect(result.stdout.contains("and every option of gesturemap run"))
    }

    @Test("a port another program holds: exit 69, saying how to pick another")
    func portTaken() throws {
        let holder = try RunningServe(["--listen", "127.0.0.1:0"])
        defer { holder.stop() }
        let result = try Binary.run(["serve", "--listen", "127.0.0.1:\(holder.port)"])
        #expect(result.status == 69)
        #expect(result.errorLines.last == "gesturemap: cannot listen on 127.0.0.1:\(holder.port): Address already in use; another program listens there: pick another port with --listen 127.0.0.1:PORT")
    }

    @Test("a certificate that cannot be read: exit 69, saying which and why")
    func badCertificate() throws {
        let cert = try Binary.temporaryFile("not-a-cert.pem", "hello\n")
        let result = try Binary.run(["serve", "--listen", "127.0.0.1:0", "--cert", cert.path, "--key", cert.path])
        #expect(result.status == 69)
        let line = try #require(result.errorLines.last)
        #expect(line.hasPrefix("gesturemap: cannot read the certificate (--cert, PEM): "))
        #expect(line.hasSuffix(" (--cert \(cert.path) --key \(cert.path))"))
    }

    @Test("bad rules stop serve before it listens, as they stop run")
    func badRules() throws {
        let rules = try Binary.temporaryFile("bad.lua", "on(\"sideways\", function() end)\n")
        let result = try Binary.run(["serve", "--listen", "127.0.0.1:0", "--rules", rules.path])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("serving"))
    }
}

/// `gesturemap serve` running, until `stop`, with the port it printed.
struct RunningServe {
    let process = Process()
    let port: Int

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["serve"] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var text = ""
        var port: Int?
        while port == nil {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("http://127.0.0.1:".count).dropLast())
            }
        }
        guard let port else {
            process.terminate()
            throw ServeStartFailure(stderr: text)
        }
        self.port = port
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

struct ServeStartFailure: Error {
    var stderr: String
}
