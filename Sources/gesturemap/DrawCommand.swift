import GestureActions
import GestureEngine
import GestureTools
import GestureSystem

/// `gesturemap draw INPUT [-o FILE.svg] [--rules FILE] [--sequence N]`.
enum DrawCommand {
    static func main(_ args: [String], console: Console) -> ExitCode {
        var output: String?
        var sequence: Int?
        var rest: [String] = []
        var a = Arguments(args, command: "draw")
        do throws(UsageError) {
            while let arg = a.next() {
                let (name, inline) = Arguments.split(arg)
                switch name {
                case "-o", "--output": output = try a.value(for: name, inline: inline)
                case "--sequence":
                    let text = try a.value(for: name, inline: inline)
                    guard let n = Int(text), n >= 1 else { throw UsageError(message: "--sequence takes a sequence's number, 1 or more, not \"\(text)\"") }
                    sequence = n
                default: rest.append(arg)
                }
            }
            guard let options = try RunCommand.parse(rest, command: "draw") else {
                printOut(Help.draw)
                return .ok
            }
            guard options.inputs.count == 1 else {
                throw UsageError(message: options.inputs.isEmpty ? "give the recording to draw, as in: gesturemap draw swipe.jsonl -o swipe.svg" : "draw takes one input, not \(options.inputs.count)")
            }
            switch DrawRequest(options: options, sequence: sequence).render(console: console) {
            case .failure(.run(let status)):
                return status
            case .failure(.noSuchSequence(let asked, let count)):
                console.say("gesturemap draw: --sequence \(asked), but \(options.inputs[0]) has \(count) touch sequence\(count == 1 ? "" : "s")")
                return .usage
            case .success(let svg):
                guard let output else {
                    let writer = LineOutput.standardOutput
                    writer.write(bytes: Array(svg.utf8))
                    return .ok
                }
                do throws(FileError) {
                    try FileSystem.replace(output, with: Array(svg.utf8))
                } catch {
                    console.say("gesturemap draw: cannot write \(error.message)")
                    return .cannotWrite
                }
                return .ok
            }
        } catch {
            return usageFailure(error, command: "draw", console: console)
        }
    }
}
