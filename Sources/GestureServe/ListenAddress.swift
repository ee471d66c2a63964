import Glibc

/// Where `serve` listens: an IPv4 address and a port (0: one the system picks).
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    public var octets: [UInt8]
    public var port: UInt16

    public static let defaultPort: UInt16 = 8023

    public init(octets: [UInt8], port: UInt16) {
        self.octets = octets
        self.port = port
    }

    public var host: String { octets.map(String.init).joined(separator: ".") }
    public var description: String { "\(host):\(port)" }

    /// "192.168.1.5:8023", "192.168.1.5" (the default port) or "0.0.0.0:0"; nil otherwise.
    public static func parse(_ text: String) -> ListenAddress? {
        var hostPart = Substring(text)
        var port = defaultPort
        if let colon = text.lastIndex(of: ":") {
            hostPart = text[..<colon]
            let digits = text[text.index(after: colon)...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let p = UInt16(digits) else { return nil }
            port = p
        }
        let parts = hostPart.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt8(part) else { return nil }
            octets.append(n)
        }
        return ListenAddress(octets: octets, port: port)
    }

    /// Who can reach an address: the scope decides whether `serve` may pick it by itself.
    public enum Scope: Equatable, Sendable {
        case loopback
        /// RFC 1918: 10/8, 172.16/12, 192.168/16.
        case privateLAN
        /// 169.254/16, shared address space 100.64/10: not routed, but not a home LAN either.
        case local
        /// 0.0.0.0: every interface, the public ones included.
        case everyInterface
        case publicInternet
    }

    public var scope: Scope {
        let (a, b) = (octets[0], octets[1])
        if octets == [0, 0, 0, 0] { return .everyInterface }
        if a == 127 { return .loopback }
        if a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) { return .privateLAN }
        if (a == 169 && b == 254) || (a == 100 && (64...127).contains(b)) { return .local }
        return .publicInternet
    }
}

/// An interface's IPv4 address, as getifaddrs lists it.
public struct InterfaceAddress: Equatable, Sendable {
    public var interface: String
    public var address: ListenAddress
}

public enum LANInterfaces {
    /// The up, non-loopback interfaces' private IPv4 addresses, in the system's order.
    public static func privateAddresses(port: UInt16) -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = entry.pointee.ifa_flags
            guard flags & UInt32(IFF_UP) != 0, flags & UInt32(IFF_LOOPBACK) == 0,
                  let sa = entry.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let raw = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            let value = UInt32(bigEndian: raw)
            let octets = [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
            let address = ListenAddress(octets: octets, port: port)
            guard address.scope == .privateLAN else { continue }
            found.append(InterfaceAddress(interface: String(cString: entry.pointee.ifa_name), address: address))
        }
        return found
    }
}
