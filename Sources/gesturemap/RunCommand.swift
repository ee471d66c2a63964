import GestureActions
import GestureContext
import GestureCore
import GestureEngine
import GestureInput

enum RunCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        do throws(UsageError) {
            guard let options = try parse(args) else {
                printOut(Help.run)
                return .ok
            }
            var runOptions = options
            runOptions.detectsAppSource = true
            RulesLookup.apply(to: &runOptions, console: console)
            StopSignals.stopGracefully()
            let status = Engine(options: runOptions, console: console, output: LineOutput.standardOutput)?.run() ?? .unavailable
            // Stopped by a signal: its last lines are out; it ends as the signal would end it.
            LineOutput.standardOutput.flush()
            StopSignals.finish()
            return status
        } catch {
            return usageFailure(error, command: "run", console: console)
        }
    }

    /// The options, or nil when help was asked for.
    static func parse(_ args: [String], command: String = "run") throws(UsageError) -> RunOptions? {
        var options = RunOptions()
        var a = Arguments(args, command: command)
        var onlyPositionals = false
        while let arg = a.next() {
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                options.inputs.append(arg)
                continue
            }
            let (name, inline) = Arguments.split(arg)
            switch name {
            case "--": onlyPositionals = true
            case "-h", "--help": return nil
            case "--rules", "-r": options.rulesPath = try a.value(for: name, inline: inline)
            case "--shapes": options.shapesPath = try a.value(for: name, inline: inline)
            case "--strict": options.strict = true
            case "-v", "--verbose": options.verbose = true
            case "--trace":
                // Only `--trace=json` takes a value: a bare --trace must not swallow the next argument.
                options.trace = inline == nil ? .text : try a.choice(for: name, inline: inline)
            case "--timing": options.timing = true
            case "--realtime": options.realtime = true
            case "--grab", "--share":
                let use: RunOptions.DeviceUse = name == "--grab" ? .grab : .share
                if use == .grab, options.shareMice {
                    throw UsageError(message: "--share-mouse and --grab ask for opposite things: --grab keeps the devices from the desktop, --share-mouse gives the desktop every click but the strokes the rules take; give one of them")
                }
                if options.deviceUse != .read, options.deviceUse != use {
                    throw UsageError(message: "--share and --grab ask for opposite things: --grab keeps the devices from the desktop, --share gives the desktop every touch but the gestures the rules claim; give one of them")
                }
                options.deviceUse = use
            case "--share-mouse":
                if options.deviceUse == .grab {
                    throw UsageError(message: "--share-mouse and --grab ask for opposite things: --grab keeps the devices from the desktop, --share-mouse gives the desktop every click but the strokes the rules take; give one of them")
                }
                options.shareMice = true
            case "--dry-run", "-n": options.dryRun = true
            case "--allow-insecure-rules": options.allowInsecureRules = true
            case "--no-watch": options.watchRules = false
            case "--resolution":
                options.resolution = try parseResolution(try a.value(for: name, inline: inline))
            case "--size":
                try parseSize(try a.value(for: name, inline: inline), into: &options)
            case "--rotate", "--flip-x", "--flip-y", "--calibration":
                try TransformOptions.parse(name, inline: inline, arguments: &a, into: &options)
            case "--format": options.format = try a.choice(for: name, inline: inline) as InputFormat
            case "--app-source", "--app-command", "--app", "--keyboard", "--no-keyboards", "--surface":
                try ContextOptions.parse(name, inline: inline, arguments: &a, into: &options)
            case "--lua-memory":
                options.luaMemory = try a.luaMemory(for: name, inline: inline)
            default:
                throw UsageError(message: "unknown option \(name)")
            }
        }
        if options.fixedApp != nil, options.appSource != nil || options.appCommand != nil {
            throw UsageError(message: "--app fixes the focused application for the whole run; leave out --app-source and --app-command, or --app")
        }
        if !options.keyboards.isEmpty, !options.readsKeyboards {
            throw UsageError(message: "--keyboard names a keyboard to read and --no-keyboards reads none; give one of them")
        }
        return options
    }

    /// "300x200" (mm, for every input that gives no resolution) or
    /// "event3=300x200" (for the inputs whose path contains "event3").
    static func parseSize(_ text: String, into options: inout RunOptions) throws(UsageError) {
        var device: String?
        var value = Substring(text)
        if let eq = text.firstIndex(of: "="), eq != text.startIndex {
            device = String(text[..<eq])
            value = text[text.index(after: eq)...]
        }
        let parts = value.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w > 0, h > 0, w <= 10_000, h <= 10_000 else {
            throw UsageError(message: "--size takes the surface's width and height in millimetres (up to 10000), as 300x200 or DEVICE=300x200, not \"\(text)\"")
        }
        let size = Surface(width: w, height: h)
        guard let device else {
            options.size = size
            return
        }
        options.deviceSizes.removeAll { $0.match == device }
        options.deviceSizes.append((device, size))
    }

    /// "16" for both axes, or "16,12" for x and y, in units per millimetre.
    static func parseResolution(_ text: String) throws(UsageError) -> (x: Double, y: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        let values = parts.compactMap { $0 }
        guard values.count == parts.count, values.count == 1 || values.count == 2 else {
            throw UsageError(message: "--resolution takes units per millimetre, as 16 or 16,12 (x,y), not \"\(text)\"")
        }
        guard values.allSatisfy({ InputLimits.unitsPerMillimetre($0) != nil }) else {
            throw UsageError(message: "--resolution takes units per millimetre from 0.001 to 1000000, not \"\(text)\"")
        }
        return (values[0], values.count == 2 ? values[1] : values[0])
    }
}
