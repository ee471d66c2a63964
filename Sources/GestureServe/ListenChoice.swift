/// Where `serve` listens when started: the address `--listen` names, or the
/// first private LAN address of an interface that is up. It never picks a
/// public address, nor every interface, by itself.
public enum ListenChoice {
    public struct Chosen: Equatable, Sendable {
        public var address: ListenAddress
        /// For the start-up line: which interface, or a warning about a named address.
        public var note: String
    }

    public static func choose(_ named: ListenAddress?, lan: [InterfaceAddress]) -> Result<Chosen, PhoneServer.StartError> {
        if let named {
            switch named.scope {
            case .publicInternet:
                return .success(Chosen(address: named, note: "a public address, as --listen asked: anyone who can reach it and has the URL can touch"))
            case .everyInterface:
                return .success(Chosen(address: named, note: "every interface, public ones included, as --listen asked"))
            case .loopback:
                return .success(Chosen(address: named, note: "this machine only"))
            case .privateLAN, .local:
                return .success(Chosen(address: named, note: "as --listen asked"))
            }
        }
        guard let first = lan.first else {
            return .failure(PhoneServer.StartError(message: "no interface has a private LAN address (10.x, 172.16-31.x, 192.168.x) to serve the phone on; "
                + "join the phone's Wi-Fi, or name an address with --listen ADDR:PORT (127.0.0.1:\(ListenAddress.defaultPort) for this machine only)"))
        }
        let others = lan.dropFirst().map { "\($0.address.host) (\($0.interface))" }
        let also = others.isEmpty ? "" : "; also private: " + others.joined(separator: ", ") + " (--listen picks one)"
        return .success(Chosen(address: first.address, note: "the private LAN address of \(first.interface)\(also)"))
    }
}
