import Glibc
import GestureSystem

/// Where `run` and `serve` find rules when not given `--rules`: the user's
/// own, then the machine's (which an administrator may lock down, as a kiosk
/// wants), then the built-in rules.
public enum RulesLookup {
    /// The places looked at, in order: `$XDG_CONFIG_HOME/gesturemap/rules.lua`
    /// (`~/.config` when unset or not absolute, as the XDG spec says), then
    /// `/etc/gesturemap/rules.lua` (`GESTUREMAP_SYSTEM_CONFIG` names another
    /// folder, for tests that must not touch /etc).
    public static func places(environment: [String: String] = ProcessEnvironment.current) -> [String] {
        var places: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            places.append(config + "/gesturemap/rules.lua")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            places.append(home + "/.config/gesturemap/rules.lua")
        }
        places.append((environment["GESTUREMAP_SYSTEM_CONFIG"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/etc/gesturemap") + "/rules.lua")
        return places
    }

    /// The first place that holds something, or nil for the built-in rules.
    /// What is there is loaded as given with `--rules` (a directory or an
    /// unreadable file is an error then, said with its path, not skipped).
    public static func find(environment: [String: String] = ProcessEnvironment.current) -> String? {
        places(environment: environment).first { path in
            var info = stat()
            return stat(path, &info) == 0
        }
    }

    /// Fills in `options.rulesPath` when `--rules` was not given; says where
    /// from with `-v`.
    public static func apply(to options: inout RunOptions, console: Console) {
        guard options.rulesPath == nil else { return }
        let looked = places()
        if let found = find() {
            options.rulesPath = found
            if options.verbose { console.note("no --rules: using \(found) (looked in \(looked.joined(separator: ", then ")))") }
        } else if options.verbose {
            console.note("no --rules: none at \(looked.joined(separator: " or ")); using the built-in rules")
        }
    }
}
