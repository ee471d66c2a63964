/// A device's events gathered into whole packets, as SYN_REPORT ends each:
/// what a gate between a device and its clone works on.
public struct EvdevPackets: Sendable {
    private var packet: [EvdevEvent] = []

    public init() {}

    /// The packet `event` ends (its events, without the SYN_REPORT), or nil.
    /// SYN_DROPPED throws away the part read: libevdev follows it with the
    /// state as it is now, ended by one SYN_REPORT.
    public mutating func add(_ event: EvdevEvent) -> [EvdevEvent]? {
        guard event.type == EV.syn else {
            packet.append(event)
            return nil
        }
        switch event.code {
        case SYN.report:
            defer { packet.removeAll(keepingCapacity: true) }
            return packet
        case SYN.dropped:
            packet.removeAll(keepingCapacity: true)
            return nil
        default:
            packet.append(event)
            return nil
        }
    }
}
