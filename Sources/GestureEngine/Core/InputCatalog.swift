import GestureInput

/// What each device index is: its name as a device or header gives it
/// (`devices`, which the decoders share), else the input's name on the
/// command line (or a phone's address), and whether it is a touchpad.
final class InputCatalog {
    let devices = DeviceDirectory()
    var names: [Int: String] = [:]
    /// Device indexes that are touchpads, which typing quiets.
    var touchpads: Set<Int> = []

    /// What `g.device` says.
    func name(of device: Int) -> String? {
        devices.name(of: device) ?? names[device]
    }
}
