import GestureContext
import GestureEngine

/// The gesture's context on the command line: where the focused application
/// comes from (`--app-source NAME`, `--app-command CMD`, `--app ID`), which
/// keyboards to read (`--keyboard PATH`, `--no-keyboards`) and what an input
/// is (`--surface [DEV=]touchpad|touchscreen`).
enum ContextOptions {
    static func parse(_ name: String, inline: String?, arguments a: inout Arguments, into options: inout RunOptions) throws(UsageError) {
        switch name {
        case "--app-source":
            options.appSource = try a.choice(for: name, inline: inline) as AppSourceName
        case "--app-command":
            let command = try a.value(for: name, inline: inline)
            guard !command.allSatisfy({ $0 == " " }) else {
                throw UsageError(message: "--app-command needs a command that prints the focused application's id, one line per change")
            }
            options.appCommand = command
        case "--app":
            let id = try a.value(for: name, inline: inline)
            guard !id.isEmpty else { throw UsageError(message: "--app needs an application id, such as firefox (gesturemap apps shows them)") }
            options.fixedApp = id
        case "--keyboard":
            options.keyboards.append(try a.value(for: name, inline: inline))
        case "--no-keyboards":
            options.readsKeyboards = false
        default:
            let text = try a.value(for: name, inline: inline)
            var device: String?
            var value = Substring(text)
            if let eq = text.firstIndex(of: "="), eq != text.startIndex {
                device = String(text[..<eq])
                value = text[text.index(after: eq)...]
            }
            let surface: TouchSurface
            switch value {
            case "touchpad": surface = .touchpad
            case "touchscreen": surface = .touchscreen
            default: throw UsageError(message: "--surface takes touchpad or touchscreen, optionally after DEVICE=, not \"\(text)\"")
            }
            guard let device else {
                options.surface = surface
                return
            }
            options.deviceSurfaces.removeAll { $0.match == device }
            options.deviceSurfaces.append((device, surface))
        }
    }
}
