import GestureEngine
import GestureTools
import GestureInput

enum RecordCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var options = RecordOptions()
        var a = Arguments(args, command: "record")
        do throws(UsageError) {
            while let arg = a.next() {
                if !arg.hasPrefix("-") {
                    guard options.device == nil else { throw UsageError(message: "record reads one device; \"\(arg)\" is a second") }
                    options.device = arg
                    continue
                }
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-h", "--help":
                    printOut(Help.record)
                    return .ok
                case "-o", "--output": options.output = try a.value(for: name, inline: inline)
                case "--from": options.from = try a.value(for: name, inline: inline)
                case "--grab": options.grab = true
                case "--format": options.format = try a.choice(for: name, inline: inline) as RecordFormat
                case "--input-format": options.inputFormat = try a.choice(for: name, inline: inline) as InputFormat
                case "--resolution":
                    options.resolution = try RunCommand.parseResolution(try a.value(for: name, inline: inline))
                default:
                    throw UsageError(message: "unknown option \(name)")
                }
            }
            if options.device != nil && options.from != nil {
                throw UsageError(message: "give a device or --from FILE, not both")
            }
        } catch {
            return usageFailure(error, command: "record", console: console)
        }
        return Recorder(options: options, console: console).run()
    }
}

enum DevicesCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var json = false
        for arg in args {
            switch arg {
            case "-h", "--help":
                printOut(Help.devices)
                return .ok
            case "--json": json = true
            default: return usageFailure(UsageError(message: "unknown option \(arg)"), command: "devices", console: console)
            }
        }
        return DeviceListing.run(json: json, console: console) { LineOutput.standardOutput.write(line: $0) }
    }
}
