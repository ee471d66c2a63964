/// Names of the devices behind each input, by device index, written by the
/// decoders the moment a header or device line names one, so that a handler
/// running inside the same read already sees it.
public final class DeviceDirectory: @unchecked Sendable {
    // Only the engine's loop thread reads and writes it.
    private var names: [Int: String] = [:]

    public init() {}

    public func name(of device: Int) -> String? { names[device] }

    public func set(_ name: String, for device: Int) { names[device] = name }
}
