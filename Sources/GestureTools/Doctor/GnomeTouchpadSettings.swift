/// GNOME's touchpad settings, as `gsettings list-recursively
/// org.gnome.desktop.peripherals.touchpad` prints them (`SCHEMA KEY VALUE` per
/// line). mutter applies them to every touchpad it reads, gesturemap's clone
/// included. GNOME Shell 40 to 47 keeps no setting for its own swipes.
struct GnomeTouchpadSettings: Equatable {
    static let schema = "org.gnome.desktop.peripherals.touchpad"
    static let command = ["gsettings", "list-recursively", schema]

    /// 'enabled', 'disabled' or 'disabled-on-external-mouse'.
    var sendEvents = "enabled"
    var tapToClick = false
    /// 'default' (libinput's: left, right, middle for 1, 2, 3 fingers), 'lrm' or 'lmr'.
    var tapButtonMap = "default"

    /// nil when the output names none of the schema's keys (no schema, no answer).
    init?(listing: String) {
        var found = false
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count == 3, fields[0] == Self.schema else { continue }
            found = true
            let value = fields[2].trimmed(of: "' ")
            switch fields[1] {
            case "send-events": sendEvents = value
            case "tap-to-click": tapToClick = value == "true"
            case "tap-button-map": tapButtonMap = value
            default: break
            }
        }
        guard found else { return nil }
    }

    init() {}

    /// The taps mutter turns into clicks, by finger count, with tap-to-click on.
    var taps: [DesktopGesture] {
        guard tapToClick else { return [] }
        let (two, three) = tapButtonMap == "lmr" ? ("middle", "right") : ("right", "middle")
        return [
            DesktopGesture(.tap, fingers: 1, [], "clicks the left button, as tap-to-click is on"),
            DesktopGesture(.tap, fingers: 2, [], "clicks the \(two) button, as tap-to-click is on"),
            DesktopGesture(.tap, fingers: 3, [], "clicks the \(three) button, as tap-to-click is on"),
        ]
    }

    /// What is worth saying about them for gesturemap, beside the gestures.
    func findings(desktop name: String) -> [DoctorFinding] {
        switch sendEvents {
        case "disabled":
            return [DoctorFinding(.warning, "\(name) has touchpads turned off (\(Self.schema) send-events is 'disabled'): it reads none, gesturemap's clone included, so its own gestures do nothing and a shared touchpad gives the desktop nothing",
                                  fix: "gsettings set \(Self.schema) send-events enabled (Settings → Mouse & Touchpad → Touchpad)")]
        case "disabled-on-external-mouse":
            return [DoctorFinding(.note, "\(name) turns touchpads off while a mouse is plugged in (\(Self.schema) send-events is 'disabled-on-external-mouse'), gesturemap's clone included: its own gestures and a shared touchpad's pointer stop then; gesturemap's rules go on")]
        default:
            return []
        }
    }
}
