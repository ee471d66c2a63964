import GestureCore
import GestureEngine
import GestureSynth
import GestureTools

enum SynthCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var phrases: [String] = []
        var seed: UInt64 = 1
        var rate: Double?
        var count: Int?
        var shapesPath: String?
        var tail: TailSwipes.Kind?
        var touchpad = false
        var a = Arguments(args, command: "synth")
        do throws(UsageError) {
            while let arg = a.next() {
                if !arg.hasPrefix("-") || arg == "-" {
                    phrases.append(arg)
                    continue
                }
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-h", "--help":
                    printOut(Help.synth)
                    return .ok
                case "--seed":
                    let text = try a.value(for: name, inline: inline)
                    guard let n = UInt64(text) else { throw UsageError(message: "--seed takes a whole number, not \"\(text)\"") }
                    seed = n
                case "--count":
                    let text = try a.value(for: name, inline: inline)
                    guard let n = Int(text), n >= 1, n <= 10_000_000 else { throw UsageError(message: "--count takes a number of gestures, 1 or more, not \"\(text)\"") }
                    count = n
                case "--shapes":
                    shapesPath = try a.value(for: name, inline: inline)
                case "--tail":
                    let text = try a.value(for: name, inline: inline)
                    guard let kind = TailSwipes.Kind(rawValue: text) else {
                        let known = TailSwipes.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                        throw UsageError(message: "--tail takes a class of swipes (\(known)), not \"\(text)\"")
                    }
                    tail = kind
                case "--touchpad":
                    touchpad = true
                case "--rate":
                    let text = try a.value(for: name, inline: inline)
                    guard let r = Double(text), r >= 10, r <= 2000 else { throw UsageError(message: "--rate takes samples per second from 10 to 2000, not \"\(text)\"") }
                    rate = r
                default:
                    throw UsageError(message: "unknown option \(name)")
                }
            }
            if tail != nil {
                guard phrases.isEmpty else { throw UsageError(message: "--tail makes its own swipes: name no gestures with it") }
                guard rate == nil, shapesPath == nil else { throw UsageError(message: "--tail chooses its own rates and draws no shapes: drop --rate and --shapes") }
            } else if touchpad {
                throw UsageError(message: "--touchpad is a profile of --tail's swipes; give --tail CLASS with it")
            }
            guard !phrases.isEmpty || tail != nil else {
                throw UsageError(message: "name the gestures to make, as in: gesturemap synth \"two-finger swipe left\" \"double tap\"")
            }
        } catch {
            return usageFailure(error, command: "synth", console: console)
        }
        if let tail {
            let out = LineOutput.standardOutput
            SynthStream.writeTail(tail, profile: touchpad ? .touchpad : .touchscreen, seed: seed, count: count ?? 100) { bytes in
                out.write(bytes: bytes)
                return !out.broken
            }
            if let failure = out.failure {
                return ExitCode.forOutput(failure, command: "gesturemap synth", console: console)
            }
            return .ok
        }
        var options = RunOptions()
        options.shapesPath = shapesPath
        let shapes: [ShapeTemplate]
        switch Engine.shapeLibrary(options: options, console: console) {
        case .success(let s): shapes = s
        case .failure(let status): return status
        }
        let out = LineOutput.standardOutput
        let result = SynthStream.write(phrases: phrases, seed: seed, rate: rate, count: count, shapes: shapes) { bytes in
            out.write(bytes: bytes)
            return !out.broken
        }
        if case .failure(let error) = result {
            console.say("gesturemap synth: \(error.message)")
            return .usage
        }
        if let failure = out.failure {
            return ExitCode.forOutput(failure, command: "gesturemap synth", console: console)
        }
        return .ok
    }
}
