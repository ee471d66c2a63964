import GestureInput

/// What each device index is: its name as a device or header gives it (the
/// decoders' output says it, before the frames after it), else the input's
/// name on the command line (or a phone's address), and whether it is a touchpad.
final class InputCatalog {
    /// Names the decoders gave, as far as the frames handled so far.
    var deviceNames: [Int: String] = [:]
    var names: [Int: String] = [:]
    /// Device indexes that are touchpads, which typing quiets.
    var touchpads: Set<Int> = []
    /// Live devices shared with the desktop, by index, while they are.
    var shares: [Int: DeviceShare] = [:]
    /// Whether a claiming rule could still take the touches down on each
    /// shared device, and for which touch sequence that was judged.
    var claimOpen: [Int: (sequence: Int, open: Bool)] = [:]
    /// The shares' clones: devices that appear and are not to be read.
    var cloneNodes: Set<String> { Set(shares.values.compactMap(\.node)) }

    /// What `g.device` says.
    func name(of device: Int) -> String? {
        deviceNames[device] ?? names[device]
    }
}
