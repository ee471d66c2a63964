/// One event of a packet to a virtual device.
public struct VirtualEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }
}
