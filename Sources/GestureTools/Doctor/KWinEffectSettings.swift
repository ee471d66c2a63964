import GestureSystem

/// Which of KWin's effects that own a touchpad gesture kwinrc turns off
/// (`[Plugins]`, `overviewEnabled=false`, `desktopgridEnabled=false`): KWin
/// loads neither then, and their four-finger swipes do nothing. Both are on
/// unless the file says otherwise.
struct KWinEffectSettings: Equatable {
    var overview = true
    var desktopGrid = true

    init() {}

    /// kwinrc's text: KConfig's `[Group]` and `key=value` lines.
    init(kwinrc text: String) {
        var group = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = String(raw).trimmed(of: " \t\r")
            if line.hasPrefix("[") {
                group = line
                continue
            }
            guard group == "[Plugins]", let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmed(of: " \t")
            let on = String(line[line.index(after: equals)...]).trimmed(of: " \t").lowercased() != "false"
            switch key {
            case "overviewEnabled": overview = on
            case "desktopgridEnabled": desktopGrid = on
            default: break
            }
        }
    }

    /// The kwinrc KWin reads: $XDG_CONFIG_HOME/kwinrc, else ~/.config/kwinrc.
    static func path(environment env: [String: String]) -> String? {
        // Empty is unset (the XDG base directory rules).
        if let configured = env["XDG_CONFIG_HOME"], !configured.isEmpty { return configured + "/kwinrc" }
        return env["HOME"].map { $0 + "/.config/kwinrc" }
    }

    /// The settings in the environment's kwinrc; the defaults when it cannot be read.
    static func read(environment: [String: String]) -> KWinEffectSettings {
        guard let path = path(environment: environment), case .success(let bytes) = BoundedFile.read(path, limit: 1 << 20) else {
            return KWinEffectSettings()
        }
        return KWinEffectSettings(kwinrc: String(decoding: bytes, as: UTF8.self))
    }
}
