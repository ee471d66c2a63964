import Foundation
import Testing

/// `gesturemap completions`: scripts made from the help texts, run in the real shells.
@Suite("Shell completions")
struct CompletionsTests {
    static func script(_ shell: String) throws -> String {
        let result = try Binary.run(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func which(_ program: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `shell -c command` in `directory`, with the script at `$1`.
    static func shell(_ shell: String, _ command: String, script: String, in directory: URL? = nil) throws -> String {
        let file = try Binary.temporaryFile("completion." + shell, script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(which(shell)))
        // bash and zsh take the script's $0 first; fish's $argv starts with the arguments.
        process.arguments = shell == "fish" ? ["-c", command, file.path] : ["-c", command, shell, file.path]
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = try Binary.temporaryDirectory().path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// What the bash script offers for these words, in `directory`.
    static func bashComplete(_ words: [String], script: String, in directory: URL? = nil) throws -> [String] {
        let array = words.map { "'\($0)'" }.joined(separator: " ")
        let output = try Self.shell("bash", "source \"$1\"; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _gesturemap; printf '%s\\n' \"${COMPREPLY[@]}\"",
                                    script: script, in: directory)
        return output.split(separator: "\n").map(String.init)
    }

    @Test("every option bash offers a command is one that command accepts: none is offered that would be refused")
    func optionsAreReal() throws {
        let script = try Self.script("bash")
        let empty = try Binary.temporaryDirectory()
        for command in ["run", "serve", "check", "test", "explain", "draw", "synth", "record", "apps", "shape", "doctor", "import"] {
            let options = try Self.bashComplete(["gesturemap", command, "-"], script: script, in: empty)
            #expect(!options.isEmpty, "\(command) is offered no option")
            for option in options where option != "-h" && option != "--help" {
                // A known option lets the parser reach --help (or stops at its value);
                // an unknown one is refused by name.
                // In a folder of its own: `record -o --help` writes a file named --help.
                let result = try Binary.run([command, option, "--help"], currentDirectory: empty, killAfter: 10)
                #expect(!result.stderr.contains("unknown option \(option)"), "\(command) \(option): \(result.stderr)")
            }
        }
    }

    @Test("bash: the commands, a command's options, and files after an option that takes one")
    func bash() throws {
        let script = try Self.script("bash")
        let directory = try Binary.temporaryDirectory()
        try "".write(to: directory.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] { try Self.bashComplete(words, script: script, in: directory) }
        #expect(try complete(["gesturemap", "do"]) == ["doctor"])
        #expect(try complete(["gesturemap", "co"]) == ["completions"])
        #expect(try complete(["gesturemap", "run", "--ru"]) == ["--rules"])
        #expect(try complete(["gesturemap", "run", "--rules", "ru"]) == ["rules.lua"])
        #expect(try complete(["gesturemap", "serve", "--ke"]) == ["--key", "--keyboard"])
        #expect(try complete(["gesturemap", "run", "--format", ""]).isEmpty)
        #expect(try complete(["gesturemap", "check", "r"]) == ["rules.lua"])
    }

    @Test("zsh and fish: the scripts parse, and fish completes commands and options from them",
          .enabled(if: which("zsh") != nil && which("fish") != nil, "zsh or fish is not installed (apt-get install zsh fish); scripts/test installs them"))
    func zshAndFish() throws {
        let zsh = try Self.script("zsh")
        #expect(zsh.hasPrefix("#compdef gesturemap\n"))
        #expect(try Self.shell("zsh", "zsh -n \"$1\" && echo parsed", script: zsh) == "parsed\n")
        let fish = try Self.script("fish")
        #expect(try Self.shell("fish", "fish -n $argv[1]; and echo parsed", script: fish).hasSuffix("parsed\n"))
        let commands = try Self.shell("fish", "source $argv[1]; complete -C 'gesturemap doc'", script: fish)
        #expect(commands.hasPrefix("doctor\twhat a run needs, what is missing here, and the fix"), "\(commands)")
        let options = try Self.shell("fish", "source $argv[1]; complete -C 'gesturemap run --dry'", script: fish)
        #expect(options.hasPrefix("--dry-run\t"), "\(options)")
    }

    @Test("an unknown shell is a usage error that names the three")
    func unknownShell() throws {
        let result = try Binary.run(["completions", "tcsh"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("give one shell: bash, zsh or fish, as in: gesturemap completions bash"), "\(result.stderr)")
    }
}
