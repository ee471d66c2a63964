import Testing
@testable import GestureServe

@Suite("Where serve listens")
struct ListenTests {
    @Test("ADDR:PORT, ADDR alone (the default port), and what is not an address")
    func parse() {
        #expect(ListenAddress.parse("192.168.1.5:9000") == ListenAddress(octets: [192, 168, 1, 5], port: 9000))
        #expect(ListenAddress.parse("127.0.0.1") == ListenAddress(octets: [127, 0, 0, 1], port: ListenAddress.defaultPort))
        for bad in ["", "localhost:80", "1.2.3:80", "1.2.3.4:", "1.2.3.4:70000", "256.1.1.1:1", "1.2.3.4.5:1", "+1.2.3.4:1", "::1"] {
            #expect(ListenAddress.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("scopes: RFC 1918 is the private LAN; 0.0.0.0 every interface; the rest public", arguments: [
        ("10.1.2.3", ListenAddress.Scope.privateLAN), ("172.16.0.1", .privateLAN), ("172.31.255.1", .privateLAN),
        ("192.168.0.10", .privateLAN), ("172.32.0.1", .publicInternet), ("8.8.8.8", .publicInternet),
        ("127.0.0.1", .loopback), ("0.0.0.0", .everyInterface), ("169.254.3.4", .local), ("100.64.0.1", .local),
    ])
    func scope(text: String, scope: ListenAddress.Scope) {
        #expect(ListenAddress.parse(text)?.scope == scope)
    }

    static let lan = [InterfaceAddress(interface: "wlan0", address: ListenAddress(octets: [192, 168, 1, 5], port: 8023)),
                      InterfaceAddress(interface: "eth0", address: ListenAddress(octets: [10, 0, 0, 2], port: 8023))]

    @Test("by default the first private LAN address, naming its interface and the others")
    func defaultChoice() {
        #expect(ListenChoice.choose(nil, lan: Self.lan) == .success(ListenChoice.Chosen(
            address: ListenAddress(octets: [192, 168, 1, 5], port: 8023),
            note: "the private LAN address of wlan0; also private: 10.0.0.2 (eth0) (--listen picks one)")))
    }

    @Test("no private address: refused, saying how to go on")
    func nothingPrivate() {
        #expect(ListenChoice.choose(nil, lan: []) == .failure(PhoneServer.StartError(message:
            "no interface has a private LAN address (10.x, 172.16-31.x, 192.168.x) to serve the phone on; "
            + "join the phone's Wi-Fi, or name an address with --listen ADDR:PORT (127.0.0.1:8023 for this machine only)")))
    }

    @Test("a public address only when --listen names it, with a warning")
    func publicNamed() throws {
        let named = try #require(ListenAddress.parse("203.0.113.9:8023"))
        #expect(ListenChoice.choose(named, lan: Self.lan) == .success(ListenChoice.Chosen(address: named,
            note: "a public address, as --listen asked: anyone who can reach it and has the URL can touch")))
    }

    @Test("the token: 32 hex digits, different each time, compared whole")
    func token() throws {
        let a = try #require(PairingToken.random())
        let b = try #require(PairingToken.random())
        #expect(a.text.count == 32 && a.text.allSatisfy(\.isHexDigit))
        #expect(a != b)
        #expect(a.matches(Substring(a.text)))
        #expect(!a.matches(Substring(a.text.dropLast())))
        #expect(!a.matches(Substring(a.text + "0")))
        #expect(!a.matches(nil))
        #expect(!a.matches(""))
    }

    @Test("the rate bucket: a burst of `rate`, then one per 1/rate s")
    func rate() {
        var bucket = RateBucket(rate: 10, now: 0)
        var taken: [Bool] = []
        for now in [Double](repeating: 0, count: 11) + [0.1, 0.1] { taken.append(bucket.take(now: now)) }
        #expect(taken == [Bool](repeating: true, count: 10) + [false, true, false])
    }
}
