import CLibevdev

/// The kernel's key names (KEY_*) and their codes, from libevdev's copy of
/// <linux/input-event-codes.h>, so key("PageDown") can name any key the
/// kernel knows, and a new libevdev brings new keys.
enum KernelKeys {
    /// The largest key code (KEY_MAX).
    static let maxCode: UInt32 = 0x2ff

    /// Names the kernel defines as another key (`#define KEY_SCREENLOCK
    /// KEY_COFFEE`): libevdev's table names each code once, by the name the
    /// kernel defines by number, so these are listed here, each with that name.
    static let aliases: [(name: String, key: String)] = [
        ("KEY_HANGUEL", "KEY_HANGEUL"), ("KEY_SCREENLOCK", "KEY_COFFEE"), ("KEY_DIRECTION", "KEY_ROTATE_DISPLAY"),
        ("KEY_DASHBOARD", "KEY_ALL_APPLICATIONS"), ("KEY_BRIGHTNESS_ZERO", "KEY_BRIGHTNESS_AUTO"), ("KEY_WIMAX", "KEY_WWAN"),
        ("KEY_ZOOM", "KEY_FULL_SCREEN"), ("KEY_SCREEN", "KEY_ASPECT_RATIO"), ("KEY_BRIGHTNESS_TOGGLE", "KEY_DISPLAYTOGGLE"),
    ]

    /// KEY_* name → code, aliases included.
    static let codes: [String: UInt16] = {
        var codes: [String: UInt16] = [:]
        for (code, name) in primaryNames { codes[name] = code }
        for alias in aliases {
            if let code = codes[alias.key] { codes[alias.name] = code }
        }
        return codes
    }()

    /// Code → the name the kernel defines by number: what `--dry-run` prints, as evtest does.
    static let primaryNames: [UInt16: String] = {
        var names: [UInt16: String] = [:]
        for code in 1..<maxCode {
            guard let raw = libevdev_event_code_get_name(UInt32(EV_KEY), code) else { continue }
            let name = String(cString: raw)
            // BTN_* are buttons (mouse, joystick, touch), not keys a rule types.
            guard name.hasPrefix("KEY_") else { continue }
            names[UInt16(code)] = name
        }
        return names
    }()
}
