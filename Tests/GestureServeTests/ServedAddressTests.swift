import Testing
@testable import GestureServe

@Suite("Host and Origin: the address the URL names")
struct ServedAddressTests {
    static let served = ServedAddress(address: ListenAddress(octets: [192, 168, 1, 23], port: 8023), tls: false)

    @Test("the address and port the URL names pass, and the origin of the page", arguments: [
        "192.168.1.23:8023",
    ])
    func matches(host: String) {
        #expect(Self.served.hostProblem(host) == nil)
        #expect(Self.served.originProblem(nil) == nil)
        #expect(Self.served.originProblem("http://192.168.1.23:8023") == nil)
        let tls = ServedAddress(address: ListenAddress(octets: [192, 168, 1, 23], port: 443), tls: true)
        #expect(tls.hostProblem("192.168.1.23") == nil && tls.hostProblem("192.168.1.23:443") == nil)
        #expect(tls.originProblem("https://192.168.1.23") == nil)
    }

    @Test("a name, another address or port, or none: refused, saying what came and what was served", arguments: [
        ("evil.example:8023", #"its Host is "evil.example:8023", not 192.168.1.23:8023 (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"#),
        ("192.168.1.23", #"its Host is "192.168.1.23", not 192.168.1.23:8023 (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"#),
        ("localhost:8023\u{1b}[2J", #"its Host is "localhost:8023\u{1B}[2J", not 192.168.1.23:8023 (a page that reached this machine under another name, as DNS rebinding does; open the URL gesturemap printed)"#),
    ])
    func wrongHost(host: String, problem: String) {
        #expect(Self.served.hostProblem(host) == problem)
    }

    @Test("no Host at all")
    func noHost() {
        #expect(Self.served.hostProblem(nil) == "it has no Host header, and the URL names 192.168.1.23:8023")
    }

    @Test("another site's origin, another scheme, or null: refused", arguments: [
        "https://evil.example", "https://192.168.1.23:8023", "null", "http://192.168.1.23:8024",
    ])
    func wrongOrigin(origin: String) {
        #expect(Self.served.originProblem(origin) == "its Origin is \"\(origin)\", not http://192.168.1.23:8023 (a script of another site)")
    }
}
