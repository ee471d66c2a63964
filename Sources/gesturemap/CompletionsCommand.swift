import GestureEngine

/// `gesturemap completions bash|zsh|fish`: the shell's completion script on stdout.
enum CompletionsCommand {
    static let help = """
    usage: gesturemap completions bash|zsh|fish

    Prints the completion script for the shell, made from the same help texts
    that --help prints. The package installs all three; from a build:
      gesturemap completions bash > ~/.local/share/bash-completion/completions/gesturemap
      gesturemap completions zsh > ~/.zfunc/_gesturemap     (with fpath+=~/.zfunc before compinit)
      gesturemap completions fish > ~/.config/fish/completions/gesturemap.fish
    """

    static func main(_ args: [String], console: Console) -> ExitCode {
        let table = CompletionTable.fromHelp()
        switch args.first {
        case "-h", "--help":
            printOut(help)
            return .ok
        case "bash" where args.count == 1: printOut(CompletionScripts.bash(table))
        case "zsh" where args.count == 1: printOut(CompletionScripts.zsh(table))
        case "fish" where args.count == 1: printOut(CompletionScripts.fish(table))
        default:
            return usageFailure(UsageError(message: "give one shell: bash, zsh or fish, as in: gesturemap completions bash"), command: "completions", console: console)
        }
        return .ok
    }
}
