import GestureCore

extension Engine {
    /// One trace line on stderr, in the form `--trace` asked for.
    func sayTrace(text: @autoclosure () -> String, json: @autoclosure () -> String) {
        switch options.trace {
        // Its lines carry what the rules and the desktop named (a fail() reason,
        // a window's title): shown, never obeyed, by the terminal.
        case .text: console.say("trace: " + TerminalText.escaped(text()))
        case .json: console.say(json())
        case nil: return
        }
    }
}
